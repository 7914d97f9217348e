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

  it("answers GET /healthz and GET /readyz as memsvc does, behind the token when set (issue 24)", async () => {
    const health = await open.request("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await open.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
    expect((await guarded.request("/readyz")).status).toBe(401);
    const authorised = await guarded.request("/healthz", {
      headers: { Authorization: "Bearer tok" },
    });
    expect(authorised.status).toBe(200);
  });

  it("answers 503 on GET /readyz when the parser does not answer", async () => {
    const broken = {
      validate: () => {
        throw new Error("wasm gone");
      },
    } as unknown as SqlToolkit;
    const res = await createSqlsvcApp({ toolkit: broken, version: "0", authToken: "" }).request(
      "/readyz",
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "SQL parser unavailable" });
  });

  it.each([
    [
      { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" },
      "Invalid Request: 'id' must be a string or an integer",
    ],
    [
      { jsonrpc: "2.0", id: [1], method: "ping" },
      "Invalid Request: 'id' must be a string or an integer",
    ],
    [
      { jsonrpc: "2.0", id: 1.5, method: "ping" },
      "Invalid Request: 'id' must be a string or an integer",
    ],
    [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: "validate_sql" },
      "Invalid Request: 'params' must be an object",
    ],
    [
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: [1] },
      "Invalid Request: 'params' must be an object",
    ],
  ])("answers %j with -32600, not -32700 (issue 26)", async (message, text) => {
    const res = await post(open, "/mcp", message);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: text },
      id: null,
    });
  });

  it("answers tools/call without params with -32602 naming them, not a schema dump (issue 26)", async () => {
    const res = await post(open, "/mcp", { jsonrpc: "2.0", id: 7, method: "tools/call" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32602,
        message: "params is required: { name, arguments }",
      },
    });
  });
});
