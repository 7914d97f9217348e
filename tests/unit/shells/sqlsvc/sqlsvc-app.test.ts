import { describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../core/sql/results.js";
import { createSqlsvcApp } from "../../../../shells/sqlsvc/sqlsvc-app.js";

/** Only validate answers; the app wiring is what is under test. */
const toolkit = {
  validate: (_sql: string, dialect?: string) => ({
    ok: true,
    result: { valid: true, ...(dialect === undefined ? {} : { dialect }) },
  }),
} as unknown as SqlToolkit;

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "unit", version: "0" },
  },
};

function post(
  app: ReturnType<typeof createSqlsvcApp>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("createSqlsvcApp", () => {
  const open = createSqlsvcApp({ toolkit, version: "9.8.7", authToken: "" });
  const guarded = createSqlsvcApp({ toolkit, version: "9.8.7", authToken: "tok" });

  it("introduces itself as sqlsvc-mcp with the given version and instructions for the model", async () => {
    const body = (await (await post(open, "/mcp", initialize)).json()) as {
      result: { serverInfo: unknown; instructions: string };
    };
    expect(body.result.serverInfo).toEqual({ name: "sqlsvc-mcp", version: "9.8.7" });
    expect(body.result.instructions).toContain("validate_sql");
  });

  it("serves the SQL tools on POST /mcp", async () => {
    const res = await post(open, "/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "validate_sql", arguments: { sql: "SELECT 1", dialect: "MySQL" } },
    });
    expect(await res.json()).toMatchObject({
      result: { structuredContent: { valid: true, dialect: "MySQL" } },
    });
  });

  it("answers other paths with a JSON 404 that points at the endpoint", async () => {
    const res = await post(open, "/", initialize);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Not Found: POST /; the MCP endpoint is POST /mcp" },
      id: null,
    });
  });

  it("puts auth in front of every path when a token is set, 404s included", async () => {
    expect((await post(guarded, "/nowhere", initialize)).status).toBe(401);
    expect(
      (await post(guarded, "/nowhere", initialize, { Authorization: "Bearer tok" })).status,
    ).toBe(404);
    expect((await post(guarded, "/mcp", initialize, { Authorization: "Bearer tok" })).status).toBe(
      200,
    );
  });
});
