import { describe, expect, it } from "vitest";
import { fixSql, lintSql } from "../../../../core/sql/lint/index.js";
import type { FormatOptions, SqlToolkit } from "../../../../core/sql/results.js";
import { McpProtocolError } from "../../../../shells/common/mcp/mcp-protocol-error.js";
import { createToolCatalog } from "../../../../shells/common/mcp/tool-catalog.js";
import { MAX_SQL_BYTES } from "../../../../shells/sqlsvc/sql-tool-params.js";
import { createSqlTools } from "../../../../shells/sqlsvc/sql-tools.js";

/** Records what the tools pass to the toolkit; answers fixed results. */
function recordingToolkit() {
  const calls: unknown[][] = [];
  const toolkit: SqlToolkit = {
    validate: (sql, dialect) => (
      calls.push(["validate", sql, dialect]),
      { ok: true, result: { valid: true, ...(dialect ? { dialect } : {}) } }
    ),
    format: (sql, options?: Partial<FormatOptions>) => (
      calls.push(["format", sql, options]),
      { ok: true, result: { formatted_sql: sql, options: options as FormatOptions } }
    ),
    parse: (sql) => (
      calls.push(["parse", sql]),
      { ok: false, error: "parse failed: line 1, column 1: unexpected x" }
    ),
    metadata: (sql) => (
      calls.push(["metadata", sql]),
      { ok: true, result: { tables: ["t"], columns: [], functions: [] } }
    ),
    scan: (sql) => (
      calls.push(["scan", sql]),
      {
        ok: true,
        result: {
          is_clean: true,
          has_critical: false,
          has_high: false,
          total_count: 0,
          critical_count: 0,
          high_count: 0,
          medium_count: 0,
          low_count: 0,
          findings: [],
        },
      }
    ),
    lint: (sql, options) => (
      calls.push(["lint", sql, options]),
      { ok: true, result: { violation_count: 0, violations: [] } }
    ),
    analyze: (sql) => (
      calls.push(["analyze", sql]),
      { ok: true, result: { errors: { parse: "parse failed: x" } } }
    ),
    fix: (sql, options) => (
      calls.push(["fix", sql, options]),
      {
        ok: true,
        result: {
          fixed_sql: sql,
          changed: false,
          fixed_count: 0,
          remaining: { violation_count: 0, violations: [] },
        },
      }
    ),
  };
  return { toolkit, calls };
}

function invalidParams(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof McpProtocolError && error.code === -32602) return error.message;
    throw error;
  }
  throw new Error("expected -32602");
}

const SQL_REQUIRED = "parameter 'sql' is required and must be a non-empty string";

describe("createSqlTools", () => {
  it("defines exactly the spec's seven tools in its order, all read-only and idempotent (issue 25)", () => {
    const { toolkit } = recordingToolkit();
    const { tools } = createToolCatalog(createSqlTools(toolkit)).listResult;
    expect(tools.map((tool) => tool.name)).toEqual([
      "validate_sql",
      "format_sql",
      "parse_sql",
      "extract_metadata",
      "security_scan",
      "lint_sql",
      "analyze_sql",
    ]);
    for (const tool of tools) {
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(tool.inputSchema).toMatchObject({
        type: "object",
        required: ["sql"],
        properties: { sql: { type: "string" } },
      });
      expect(tool.description.length).toBeGreaterThan(80);
    }
  });

  it("advertises the dialect enum and format_sql's options with their defaults", () => {
    const { toolkit } = recordingToolkit();
    const [validate, format] = createToolCatalog(createSqlTools(toolkit)).listResult.tools;
    expect(validate?.inputSchema["properties"]).toMatchObject({
      dialect: {
        type: "string",
        enum: ["generic", "mysql", "postgresql", "sqlite", "sqlserver", "oracle", "snowflake"],
      },
    });
    expect(format?.inputSchema["properties"]).toMatchObject({
      indent_size: { type: "integer", minimum: 0, maximum: 16, default: 2 },
      uppercase_keywords: { type: "boolean", default: false },
      add_semicolon: { type: "boolean", default: false },
    });
  });

  it.each([
    ["missing", {}],
    ["empty", { sql: "" }],
    ["whitespace only", { sql: " \n\t " }],
    ["a number", { sql: 42 }],
    ["null", { sql: null }],
  ])("rejects sql that is %s with the parameter's message", (_name, args) => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    for (const tool of catalog.listResult.tools) {
      expect(invalidParams(() => catalog.call(tool.name, args))).toBe(SQL_REQUIRED);
    }
  });

  it("rejects sql over 256 KiB of UTF-8 and accepts exactly 256 KiB", () => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(() => catalog.call("lint_sql", { sql: "x".repeat(MAX_SQL_BYTES) })).not.toThrow();
    const multibyte = "é".repeat(MAX_SQL_BYTES / 2 + 1);
    expect(invalidParams(() => catalog.call("lint_sql", { sql: multibyte }))).toBe(
      `parameter 'sql' is too long: ${MAX_SQL_BYTES + 2} bytes, at most ${MAX_SQL_BYTES} (256 KiB)`,
    );
  });

  it("passes the dialect as the caller wrote it, matched case-insensitively", () => {
    const { toolkit, calls } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(catalog.call("validate_sql", { sql: "SELECT 1", dialect: "PostgreSQL" })).toMatchObject({
      structured: { valid: true, dialect: "PostgreSQL" },
    });
    catalog.call("validate_sql", { sql: "SELECT 1" });
    expect(calls).toEqual([
      ["validate", "SELECT 1", "PostgreSQL"],
      ["validate", "SELECT 1", undefined],
    ]);
  });

  it.each([
    [
      "bogus",
      "parameter 'dialect' must be one of generic, mysql, postgresql, sqlite, sqlserver, oracle, snowflake (any letter case), got \"bogus\"",
    ],
    [
      7,
      "parameter 'dialect' must be one of generic, mysql, postgresql, sqlite, sqlserver, oracle, snowflake (any letter case), got 7",
    ],
  ])("rejects the dialect %j with -32602", (dialect, message) => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(invalidParams(() => catalog.call("validate_sql", { sql: "SELECT 1", dialect }))).toBe(
      message,
    );
  });

  it("fills format_sql's defaults and passes given options through", () => {
    const { toolkit, calls } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    catalog.call("format_sql", { sql: "select 1" });
    catalog.call("format_sql", {
      sql: "select 1",
      indent_size: 0,
      uppercase_keywords: true,
      add_semicolon: true,
    });
    expect(calls).toEqual([
      ["format", "select 1", { indent_size: 2, uppercase_keywords: false, add_semicolon: false }],
      ["format", "select 1", { indent_size: 0, uppercase_keywords: true, add_semicolon: true }],
    ]);
  });

  it("passes format_sql's and lint_sql's dialect through and rejects an unknown one (issue 8)", () => {
    const { toolkit } = recordingToolkit();
    const seen: unknown[] = [];
    const catalog = createToolCatalog(
      createSqlTools({
        ...toolkit,
        format: (sql, options, dialect) => (
          seen.push(["format", dialect]),
          { ok: true, result: { formatted_sql: sql, options: options as FormatOptions } }
        ),
        lint: (_sql, options) => (
          seen.push(["lint", options?.dialect]),
          { ok: true, result: { violation_count: 0, violations: [] } }
        ),
      }),
    );
    catalog.call("format_sql", { sql: "select 1", dialect: "MySQL" });
    catalog.call("lint_sql", { sql: "select 1", dialect: "mysql" });
    catalog.call("lint_sql", { sql: "select 1" });
    expect(seen).toEqual([
      ["format", "MySQL"],
      ["lint", "mysql"],
      ["lint", undefined],
    ]);
    expect(
      invalidParams(() => catalog.call("lint_sql", { sql: "select 1", dialect: "db2" })),
    ).toMatch(/^parameter 'dialect' must be one of generic, mysql/);
  });

  it.each([
    [{ indent_size: 2.5 }, "parameter 'indent_size' must be an integer from 0 to 16, got 2.5"],
    [{ indent_size: 17 }, "parameter 'indent_size' must be an integer from 0 to 16, got 17"],
    [{ indent_size: -1 }, "parameter 'indent_size' must be an integer from 0 to 16, got -1"],
    [{ indent_size: "4" }, "parameter 'indent_size' must be an integer from 0 to 16, got \"4\""],
    [
      { uppercase_keywords: "true" },
      "parameter 'uppercase_keywords' must be true or false, got \"true\"",
    ],
    [{ add_semicolon: 1 }, "parameter 'add_semicolon' must be true or false, got 1"],
  ])("rejects format_sql options %j with -32602", (options, message) => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(invalidParams(() => catalog.call("format_sql", { sql: "select 1", ...options }))).toBe(
      message,
    );
  });

  it("lint_sql takes optional rule selection, dialect and rule settings (issue 13)", () => {
    const { toolkit, calls } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    const lint = catalog.listResult.tools.find((t) => t.name === "lint_sql");
    expect(lint?.inputSchema).toMatchObject({
      required: ["sql"],
      properties: {
        rules: { type: "array", items: { type: "string" } },
        exclude_rules: { type: "array" },
        dialect: { type: "string", enum: expect.arrayContaining(["mysql"]) as unknown },
        rule_options: {
          type: "object",
          properties: {
            L005: { type: "object", properties: { max_length: { type: "integer" } } },
            L007: { properties: { keyword_case: { enum: ["upper", "lower", "consistent"] } } },
          },
        },
      },
    });
    catalog.call("lint_sql", { sql: "select 1" });
    catalog.call("lint_sql", {
      sql: "select 1",
      rules: ["L007", "LongLines"],
      exclude_rules: [],
      dialect: "MySQL",
      rule_options: { L005: { max_length: 120 }, L007: { keyword_case: "lower" } },
    });
    expect(calls).toEqual([
      ["lint", "select 1", {}],
      [
        "lint",
        "select 1",
        {
          rules: ["L007", "LongLines"],
          exclude_rules: [],
          dialect: "mysql",
          rule_options: { L005: { max_length: 120 }, L007: { keyword_case: "lower" } },
        },
      ],
    ]);
  });

  it("lint_sql applies the options and noqa comments with the real linter", () => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(
      createSqlTools({
        ...toolkit,
        lint: (sql, options) => ({ ok: true, result: lintSql(sql, options) }),
      }),
    );
    const sql = "select a  from t -- noqa: L010\nselect b";
    expect(catalog.call("lint_sql", { sql })).toMatchObject({ structured: { violation_count: 3 } });
    expect(
      catalog.call("lint_sql", { sql, rule_options: { L007: { keyword_case: "lower" } } }),
    ).toMatchObject({ structured: { violation_count: 0 } });
  });

  it.each([
    [{ rules: ["L099"] }, /^parameter 'rules\.0': unknown rule "L099"/],
    [{ rules: "L001" }, /^parameter 'rules': expected a list of rule codes or names/],
    [
      { rule_options: { L005: { max_length: 0 } } },
      /^parameter 'rule_options\.L005\.max_length': expected an integer from 1 to 100000, got 0$/,
    ],
    [
      { rule_options: { L007: { keyword_case: "title" } } },
      /^parameter 'rule_options\.L007\.keyword_case': expected one of upper, lower, consistent, got "title"$/,
    ],
    [
      { rule_options: { L007: { case: "lower" } } },
      /^parameter 'rule_options\.L007\.case': unknown key/,
    ],
    [{ rule_options: { L001: {} } }, /^parameter 'rule_options\.L001': unknown key/],
    [{ dialect: "cobol" }, /^parameter 'dialect' must be one of generic, mysql/],
  ])("rejects lint_sql options %j with -32602 naming the key", (options, message) => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(invalidParams(() => catalog.call("lint_sql", { sql: "select 1", ...options }))).toMatch(
      message,
    );
  });

  it("lint_sql with fix: true adds the fixed text with the real fixer (fix_sql folded in, issue 25)", () => {
    const { toolkit, calls } = recordingToolkit();
    const recording = createToolCatalog(createSqlTools(toolkit));
    recording.call("lint_sql", { sql: "select 1", dialect: "MySQL", rules: ["L007"], fix: true });
    expect(calls).toEqual([
      ["lint", "select 1", { rules: ["L007"], dialect: "mysql" }],
      ["fix", "select 1", { rules: ["L007"], dialect: "mysql" }],
    ]);
    expect(invalidParams(() => recording.call("lint_sql", { sql: "x", fix: "yes" }))).toBe(
      `parameter 'fix' must be true or false, got "yes"`,
    );
    const real = createToolCatalog(
      createSqlTools({
        ...toolkit,
        lint: (sql, options) => ({ ok: true, result: lintSql(sql, options) }),
        fix: (sql, options) => ({ ok: true, result: fixSql(sql, options) }),
      }),
    );
    const sql = "select a  from t -- noqa: L010\nselect b   ";
    const outcome = real.call("lint_sql", { sql, fix: true });
    expect(outcome).toMatchObject({
      structured: {
        ...lintSql(sql),
        fixed_sql: "SELECT a  FROM t -- noqa: L010\nSELECT b",
        changed: true,
        fixed_count: 5,
        remaining: { violation_count: 0, violations: [] },
      },
    });
    // Without the option, the seed's shape byte for byte.
    expect(real.call("lint_sql", { sql })).toEqual({
      isError: false,
      text: JSON.stringify(lintSql(sql)),
      structured: lintSql(sql),
    });
  });

  it("lint_sql with compact: true gives one line per violation, fixed or not", () => {
    const { toolkit } = recordingToolkit();
    const real = createToolCatalog(
      createSqlTools({
        ...toolkit,
        lint: (sql, options) => ({ ok: true, result: lintSql(sql, options) }),
        fix: (sql, options) => ({ ok: true, result: fixSql(sql, options) }),
      }),
    );
    const sql = "select a  from t   ";
    const full = lintSql(sql);
    const lines = full.violations.map((v) => `${v.rule} ${v.line}:${v.column} ${v.message}`);
    expect(lines.length).toBeGreaterThan(1);
    expect(real.call("lint_sql", { sql, compact: true })).toMatchObject({
      structured: { violation_count: full.violation_count, violations: lines },
    });
    expect(real.call("lint_sql", { sql, compact: true, fix: true, rules: ["L001"] })).toMatchObject(
      {
        structured: {
          violation_count: 1,
          violations: ["L001 1:17 Line has trailing whitespace"],
          fixed_sql: "select a  from t",
          remaining: { violation_count: 0, violations: [] },
        },
      },
    );
  });

  it("reports a parse failure as an error result, not a protocol error", () => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(catalog.call("parse_sql", { sql: "x" })).toEqual({
      isError: true,
      text: "parse failed: line 1, column 1: unexpected x",
    });
  });

  it("sends each analysis tool's result as is", () => {
    const { toolkit, calls } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(catalog.call("extract_metadata", { sql: "s" })).toMatchObject({
      structured: { tables: ["t"] },
    });
    expect(catalog.call("security_scan", { sql: "s" })).toMatchObject({
      structured: { is_clean: true },
    });
    expect(catalog.call("lint_sql", { sql: "s" })).toMatchObject({
      structured: { violation_count: 0 },
    });
    expect(catalog.call("analyze_sql", { sql: "s" })).toMatchObject({
      structured: { errors: { parse: "parse failed: x" } },
    });
    expect(calls.map((call) => call[0])).toEqual(["metadata", "scan", "lint", "analyze"]);
  });

  it("ignores arguments it does not know", () => {
    const { toolkit } = recordingToolkit();
    const catalog = createToolCatalog(createSqlTools(toolkit));
    expect(catalog.call("lint_sql", { sql: "s", verbose: true })).toMatchObject({ isError: false });
  });

  it("passes the optional capabilities only when asked, and names a bad one (issue 25)", () => {
    const { toolkit } = recordingToolkit();
    const calls: unknown[][] = [];
    const catalog = createToolCatalog(
      createSqlTools({
        ...toolkit,
        validate: (...args) => (calls.push(["validate", ...args]), toolkit.validate(args[0])),
        format: (...args) => (calls.push(["format", ...args]), toolkit.format(args[0], args[1])),
        metadata: (...args) => (calls.push(["metadata", ...args]), toolkit.metadata(args[0])),
      }),
    );
    catalog.call("validate_sql", { sql: "SELECT 1", schema: { users: ["id"], t: { a: "int" } } });
    catalog.call("format_sql", { sql: "SELECT 1", dialect: "mysql", target_dialect: "PostgreSQL" });
    catalog.call("extract_metadata", { sql: "SELECT 1", lineage: true });
    catalog.call("extract_metadata", { sql: "SELECT 1" });
    const defaults = { indent_size: 2, uppercase_keywords: false, add_semicolon: false };
    expect(calls).toStrictEqual([
      ["validate", "SELECT 1", undefined, { schema: { users: ["id"], t: { a: "int" } } }],
      ["format", "SELECT 1", defaults, "mysql", "PostgreSQL"],
      ["metadata", "SELECT 1", { lineage: true }],
      ["metadata", "SELECT 1"],
    ]);
    expect(
      invalidParams(() => catalog.call("validate_sql", { sql: "x", schema: "users(id)" })),
    ).toMatch(/^parameter 'schema' expected an object of table name -> column names/);
    expect(
      invalidParams(() => catalog.call("validate_sql", { sql: "x", schema: { users: "id" } })),
    ).toBe(
      "parameter 'schema.users': expected a list of column names or an object of column name -> type",
    );
    expect(
      invalidParams(() => catalog.call("format_sql", { sql: "x", target_dialect: "cobol" })),
    ).toMatch(/^parameter 'target_dialect' must be one of generic, mysql/);
    expect(invalidParams(() => catalog.call("extract_metadata", { sql: "x", lineage: 1 }))).toBe(
      "parameter 'lineage' must be true or false, got 1",
    );
  });
});
