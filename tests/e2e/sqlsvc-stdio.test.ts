import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { SQLSVC_BIN, sqlsvcEnv } from "../support/spawn-sqlsvc.js";

describe("sqlsvc-mcp --stdio", () => {
  it("serves the seven tools to the SDK's stdio client and is gone once the client closes", async () => {
    const env = Object.fromEntries(
      Object.entries(sqlsvcEnv()).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SQLSVC_BIN, "--stdio"],
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "sqlsvc-e2e-stdio", version: "1.0.0" });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe("sqlsvc-mcp");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const result = (await client.callTool({
      name: "parse_sql",
      arguments: { sql: "SELECT 1; SELECT 2" },
    })) as {
      structuredContent?: unknown;
    };
    expect(result.structuredContent).toEqual({
      statement_count: 2,
      statement_types: ["*ast.SelectStatement", "*ast.SelectStatement"],
    });
    const invalid = await client
      .callTool({ name: "parse_sql", arguments: {} })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ code: -32602 });
    const pid = transport.pid;
    expect(pid).toBeTypeOf("number");
    await client.close();
    // Signal 0 only checks existence: the server is gone once the client has closed.
    expect(() => process.kill(pid as number, 0)).toThrow();
  });
});
