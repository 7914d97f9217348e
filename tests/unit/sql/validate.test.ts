import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import type { SqlParser } from "../../../core/ports/sql-parser.js";
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
