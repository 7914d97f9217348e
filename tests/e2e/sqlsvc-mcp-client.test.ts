import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSqlsvc, type SqlsvcProcess } from "../support/spawn-sqlsvc.js";

const TOOLS = [
  "validate_sql",
  "format_sql",
  "parse_sql",
  "extract_metadata",
  "security_scan",
  "lint_sql",
  "analyze_sql",
];

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "sqlsvc-e2e", version: "1.0.0" });
  const requestInit =
    token === undefined ? undefined : { headers: { Authorization: `Bearer ${token}` } };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), requestInit ? { requestInit } : {}),
  );
  return client;
}

interface ToolResult {
  structuredContent?: Record<string, unknown>;
  content: { type: string; text: string }[];
  isError?: boolean;
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

describe("sqlsvc-mcp with the official MCP SDK client", () => {
  let server: SqlsvcProcess;
  let client: Client;

  beforeAll(async () => {
    server = await startSqlsvc();
    client = await connect(server.url);
    // The client keeps each tool's outputSchema from the listing and checks every structured
    // result against it from then on (a result that does not match throws).
    await client.listTools();
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it("reports its name and the package version after the handshake", () => {
    expect(client.getServerVersion()).toEqual({
      name: "sqlsvc-mcp",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
  });

  it("lists exactly the seed's seven tools with input and output schemas and read-only annotations (issue 25)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: "object", required: ["sql"] });
      expect(tool.outputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
  });

  it("answers the seed's shapes, key for key, when no option is given (issue 25)", async () => {
    const sql = "select u.id, count(*) as n from users u where u.id = 1 group by u.id";
    const keys = async (name: string) =>
      Object.keys((await callTool(client, name, { sql })).structuredContent ?? {});
    expect(await keys("validate_sql")).toEqual(["valid"]);
    expect(await keys("format_sql")).toEqual(["formatted_sql", "options"]);
    expect(await keys("parse_sql")).toEqual(["statement_count", "statement_types"]);
    expect(await keys("extract_metadata")).toEqual(["tables", "columns", "functions"]);
    expect(await keys("security_scan")).toEqual([
      "is_clean",
      "has_critical",
      "has_high",
      "total_count",
      "critical_count",
      "high_count",
      "medium_count",
      "low_count",
      "findings",
    ]);
    expect(await keys("analyze_sql")).toEqual([
      "validate",
      "parse",
      "metadata",
      "security",
      "lint",
      "format",
    ]);
    const lint = (await callTool(client, "lint_sql", { sql })).structuredContent as {
      violations: Record<string, unknown>[];
    };
    expect(Object.keys(lint)).toEqual(["violation_count", "violations"]);
    expect(lint.violations.length).toBeGreaterThan(0);
    for (const violation of lint.violations) {
      expect(Object.keys(violation)).toEqual([
        "rule",
        "rule_name",
        "severity",
        "message",
        "line",
        "column",
        "suggestion",
      ]);
    }
  });

  it("adds fields only for the options asked for, each result matching its outputSchema", async () => {
    const fixed = await callTool(client, "lint_sql", { sql: "select a  from t   ", fix: true });
    expect(fixed.structuredContent).toMatchObject({
      fixed_sql: "SELECT a FROM t",
      changed: true,
      remaining: { violation_count: 0, violations: [] },
    });
    const compact = await callTool(client, "lint_sql", { sql: "select 1   ", compact: true });
    expect(compact.structuredContent).toMatchObject({
      violations: expect.arrayContaining(["L001 1:9 Line has trailing whitespace"]),
    });
    const schema = { users: ["id", "name"], orders: ["id", "user_id"] };
    const checked = await callTool(client, "validate_sql", {
      sql: "SELECT id FROM users u JOIN orders o ON u.id = o.user_id",
      schema,
    });
    expect(checked.structuredContent).toMatchObject({
      valid: false,
      errors: [{ code: "ambiguous_column", line: 1, column: 8 }],
      schema_checked: true,
    });
    const moved = await callTool(client, "format_sql", {
      sql: "SELECT TOP 5 name FROM users",
      dialect: "sqlserver",
      target_dialect: "postgresql",
    });
    expect(moved.structuredContent).toMatchObject({
      formatted_sql: "SELECT name\nFROM users\nLIMIT 5",
      target_dialect: "postgresql",
    });
    const traced = await callTool(client, "extract_metadata", {
      sql: "SELECT u.name AS who FROM users u",
      lineage: true,
    });
    expect(traced.structuredContent).toMatchObject({
      lineage: [{ statement: 1, column: "who", sources: ["users.name"] }],
    });
  });

  it("validates SQL and echoes the dialect only when given", async () => {
    const plain = await callTool(client, "validate_sql", { sql: "SELECT id FROM users" });
    expect(plain.structuredContent).toEqual({ valid: true });
    expect(JSON.parse(plain.content[0]?.text ?? "")).toEqual(plain.structuredContent);
    const tsql = await callTool(client, "validate_sql", {
      sql: "SELECT TOP 5 * FROM t",
      dialect: "SQLServer",
    });
    expect(tsql.structuredContent).toEqual({ valid: true, dialect: "SQLServer" });
  });

  it("answers invalid SQL with valid=false and an error naming line and column", async () => {
    const result = await callTool(client, "validate_sql", { sql: "SELECT FROM WHERE" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      valid: false,
      error: expect.stringMatching(/line 1, column \d+/),
    });
  });

  it("formats with the options echoed", async () => {
    const result = await callTool(client, "format_sql", {
      sql: "select a,b from t where a=1",
      uppercase_keywords: true,
      add_semicolon: true,
    });
    expect(result.structuredContent).toMatchObject({
      formatted_sql: expect.stringMatching(/^SELECT[\s\S]*FROM[\s\S]*;$/),
      options: { indent_size: 2, uppercase_keywords: true, add_semicolon: true },
    });
  });

  it("parses into statement kinds", async () => {
    const result = await callTool(client, "parse_sql", {
      sql: "SELECT 1; INSERT INTO t VALUES (1)",
    });
    expect(result.structuredContent).toEqual({
      statement_count: 2,
      statement_types: ["*ast.SelectStatement", "*ast.InsertStatement"],
    });
  });

  it("reports SQL that does not parse as a tool error for parse_sql", async () => {
    const result = await callTool(client, "parse_sql", { sql: "SELECT FROM WHERE" });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/^parse failed: .*line 1, column \d+/);
  });

  it("extracts tables, columns and functions", async () => {
    const result = await callTool(client, "extract_metadata", {
      sql: "SELECT u.id, count(o.id) FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.id",
    });
    expect(result.structuredContent).toMatchObject({
      tables: ["users", "orders"],
      functions: ["count"],
    });
    expect(result.structuredContent?.["columns"]).toEqual(
      expect.arrayContaining(["id", "user_id"]),
    );
  });

  it("flags a tautology in the security scan", async () => {
    const result = await callTool(client, "security_scan", {
      sql: "SELECT * FROM users WHERE name = '' OR 1=1 --'",
    });
    expect(result.structuredContent).toMatchObject({ is_clean: false, has_high: true });
    expect(result.structuredContent?.["total_count"]).toBeGreaterThan(0);
  });

  it("lints style", async () => {
    const result = await callTool(client, "lint_sql", { sql: "select id from users   \n" });
    expect(result.structuredContent?.["violation_count"]).toBeGreaterThan(0);
    expect(result.structuredContent?.["violations"]).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule: "L001" })]),
    );
  });

  it("analyses everything at once and lists failed parts under errors", async () => {
    const good = await callTool(client, "analyze_sql", { sql: "SELECT id FROM users" });
    expect(Object.keys(good.structuredContent ?? {}).sort()).toEqual([
      "format",
      "lint",
      "metadata",
      "parse",
      "security",
      "validate",
    ]);
    const bad = await callTool(client, "analyze_sql", { sql: "SELECT FROM WHERE" });
    expect(bad.structuredContent).toMatchObject({
      validate: { valid: false },
      errors: { parse: expect.stringMatching(/^parse failed/) },
    });
    expect(bad.structuredContent).toHaveProperty("security");
    expect(bad.structuredContent).toHaveProperty("lint");
  });

  it("rejects a missing sql parameter with JSON-RPC -32602 naming it", async () => {
    const error = await client
      .callTool({ name: "lint_sql", arguments: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        "parameter 'sql' is required and must be a non-empty string",
      ),
    });
  });

  it("rejects an unknown dialect and an unknown tool with -32602", async () => {
    const dialect = await client
      .callTool({ name: "validate_sql", arguments: { sql: "SELECT 1", dialect: "cobol" } })
      .catch((e: unknown) => e);
    expect(dialect).toMatchObject({
      code: -32602,
      message: expect.stringContaining("parameter 'dialect'"),
    });
    const tool = await client
      .callTool({ name: "drop_database", arguments: { sql: "x" } })
      .catch((e: unknown) => e);
    expect(tool).toMatchObject({
      code: -32602,
      message: expect.stringContaining("unknown tool 'drop_database'"),
    });
  });
});

describe("sqlsvc-mcp with a token, through the SDK client", () => {
  let server: SqlsvcProcess;

  beforeAll(async () => {
    server = await startSqlsvc({ SQLSVC_MCP_AUTH_TOKEN: "  e2e-token  " });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("prints auth=true and serves a client that sends the trimmed token", async () => {
    expect(server.stderr()).toContain("(auth=true)");
    const client = await connect(server.url, "e2e-token");
    const result = await callTool(client, "validate_sql", { sql: "SELECT 1" });
    expect(result.structuredContent).toEqual({ valid: true });
    await client.close();
  });

  it("refuses a client without the token", async () => {
    await expect(connect(server.url)).rejects.toThrow(/401|Unauthorized/);
  });
});
