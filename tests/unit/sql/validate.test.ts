import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import type { SqlParser } from "../../../core/ports/sql-parser.js";
import { SQL_DIALECTS } from "../../../core/sql/dialects.js";
import { extractMetadata } from "../../../core/sql/metadata.js";
import { parseSql } from "../../../core/sql/parse.js";
import { findSyntaxError, validateSql } from "../../../core/sql/validate.js";
import { loadedParser } from "./loaded-parser.js";

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

describe("validateSql", () => {
  it("answers valid without echoing a dialect when none was given", () => {
    expect(validateSql(parser, "SELECT id FROM users")).toEqual({ valid: true });
  });

  it("echoes the dialect exactly as given and matches it case-insensitively", () => {
    expect(validateSql(parser, "SELECT TOP 5 * FROM t", "SQLServer")).toEqual({
      valid: true,
      dialect: "SQLServer",
    });
  });

  it("prefixes errors with invalid SQL and gives line, column and reason", () => {
    expect(validateSql(parser, "SELECT * FROM t LIMIT 5", "sqlserver")).toEqual({
      valid: false,
      error:
        "invalid SQL: line 1, column 17: LIMIT clause is not supported in SQL Server; use TOP or OFFSET/FETCH NEXT instead",
      dialect: "sqlserver",
    });
    expect(validateSql(parser, "SELECT id,\n  FROM t")).toEqual({
      valid: false,
      error: "invalid SQL: line 2, column 3: unexpected FROM",
    });
  });

  it("rejects TOP in PostgreSQL and accepts it in generic", () => {
    expect(validateSql(parser, "SELECT TOP 5 * FROM t", "postgresql").valid).toBe(false);
    expect(validateSql(parser, "SELECT TOP 5 * FROM t", "generic").valid).toBe(true);
  });

  it("rejects words and expressions that are no statement, in every dialect", () => {
    const cases: [string, string][] = [
      ["SELEC * FRM t", "line 1, column 1: unexpected SELEC"],
      ["FOO BAR", "line 1, column 1: unexpected FOO"],
      ["1 + 1", 'line 1, column 1: unexpected "1"'],
      ["SELECT 1; FOO", "line 1, column 11: unexpected FOO"],
    ];
    for (const dialect of SQL_DIALECTS) {
      for (const [sql, where] of cases) {
        expect(validateSql(parser, sql, dialect), `${dialect}: ${sql}`).toEqual({
          valid: false,
          error: `invalid SQL: ${where}`,
          dialect,
        });
      }
    }
  });

  it("makes parse_sql and extract_metadata fail on them too", () => {
    expect(parseSql(parser, "SELEC * FRM t")).toEqual({
      ok: false,
      error: "parse failed: line 1, column 1: unexpected SELEC",
    });
    expect(extractMetadata(parser, "SELECT 1; FOO")).toEqual({
      ok: false,
      error: "parse failed: line 1, column 11: unexpected FOO",
    });
    expect(parseSql(parser, "FOO BAR").ok).toBe(false);
    expect(extractMetadata(parser, "1 + 1").ok).toBe(false);
  });

  it("answers an unknown dialect with the list of known ones", () => {
    expect(validateSql(parser, "SELECT 1", "clickhouse")).toEqual({
      valid: false,
      error:
        'unknown SQL dialect "clickhouse"; valid dialects: generic, mysql, postgresql, sqlite, sqlserver, oracle, snowflake',
      dialect: "clickhouse",
    });
  });

  it("works with any SqlParser, using parse() when the parser has no check()", () => {
    const parseOnly: SqlParser = {
      load: () => Promise.resolve(),
      parse: () => ({ ok: false, error: { line: 3, column: 4, reason: "nope" } }),
    };
    expect(findSyntaxError(parseOnly, "x", "generic")).toEqual({
      line: 3,
      column: 4,
      reason: "nope",
    });
    expect(validateSql(parseOnly, "x").error).toBe("invalid SQL: line 3, column 4: nope");
  });
});
