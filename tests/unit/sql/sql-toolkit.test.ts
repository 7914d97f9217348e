import { beforeAll, describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../core/sql/results.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { loadedParser } from "./loaded-parser.js";

let tools: SqlToolkit;
beforeAll(async () => {
  tools = createSqlToolkit(await loadedParser());
});

describe("createSqlToolkit", () => {
  it("validates per dialect", () => {
    expect(tools.validate("SELECT TOP 5 * FROM t", "sqlserver")).toEqual({
      ok: true,
      result: { valid: true, dialect: "sqlserver" },
    });
    expect(tools.validate("SELECT TOP 5 * FROM t", "mysql")).toMatchObject({
      ok: true,
      result: { valid: false },
    });
  });

  it("formats, parses and extracts metadata", () => {
    expect(tools.format("select 1", { add_semicolon: true })).toMatchObject({
      ok: true,
      result: { formatted_sql: "select 1;" },
    });
    expect(tools.parse("SELECT 1 UNION SELECT 2")).toEqual({
      ok: true,
      result: { statement_count: 1, statement_types: ["*ast.SetOperation"] },
    });
    expect(tools.metadata("SELECT COUNT(*) FROM orders")).toEqual({
      ok: true,
      result: { tables: ["orders"], columns: [], functions: ["COUNT"] },
    });
  });

  it("reads MySQL backslash escapes in format_sql and lint_sql when the dialect is mysql (issue 8)", () => {
    const sql = "INSERT INTO t (name) VALUES ('O\\'Reilly')";
    expect(tools.validate(sql, "mysql").result.valid).toBe(true);
    expect(tools.format(sql, {}, "MySQL")).toEqual({
      ok: true,
      result: {
        formatted_sql: "INSERT INTO t (name)\nVALUES ('O\\'Reilly')",
        options: { indent_size: 2, uppercase_keywords: false, add_semicolon: false },
      },
    });
    // Standard SQL reads the backslash literally: the string is then unterminated.
    expect(tools.format(sql, {}, "postgresql")).toEqual({
      ok: false,
      error: "format failed: line 1, column 40: unterminated string",
    });
    // `generic` accepts what MySQL accepts, so it formats what only MySQL's reading closes.
    expect(tools.validate(sql).result.valid).toBe(true);
    expect(tools.format(sql)).toEqual(tools.format(sql, {}, "mysql"));
    // Linted as MySQL, the string is one token: no keyword-case finding inside it.
    const mysqlLint = tools.lint("select 'a\\' from b'", { dialect: "mysql" }).result;
    const standardLint = tools.lint("select 'a\\' from b'").result;
    expect(mysqlLint.violations.filter((v) => v.rule === "L007")).toHaveLength(1);
    expect(standardLint.violations.filter((v) => v.rule === "L007").length).toBeGreaterThan(1);
  });

  it("scans and lints with the core analysers", () => {
    expect(tools.scan("SELECT * FROM users WHERE id = 1 OR 1=1").result.has_critical).toBe(true);
    expect(tools.lint("select id from users").result.violation_count).toBeGreaterThan(0);
  });

  it("answers analyze_sql on unparseable SQL with format, security and lint still present", () => {
    const report = tools.analyze("SELECT FROM").result;
    expect(Object.keys(report.errors ?? {}).sort()).toEqual(["metadata", "parse"]);
    expect(report.validate?.valid).toBe(false);
    expect(report.security?.is_clean).toBe(true);
    expect(report.lint?.violation_count).toBe(0);
    expect(report.format?.formatted_sql).toBe("SELECT\nFROM");
  });

  it("answers analyze_sql with all six reports for valid SQL", () => {
    const report = tools.analyze("SELECT id, name FROM users WHERE active = true").result;
    expect(Object.keys(report)).toEqual([
      "validate",
      "parse",
      "metadata",
      "security",
      "lint",
      "format",
    ]);
  });
});
