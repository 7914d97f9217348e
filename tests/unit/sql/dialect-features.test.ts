import { describe, expect, it } from "vitest";
import { findDialectViolation } from "../../../core/sql/dialect-features.js";
import type { SqlDialect } from "../../../core/sql/dialects.js";
import { tokenize } from "../../../core/sql/tokenizer.js";

function violation(sql: string, dialect: SqlDialect) {
  return findDialectViolation(tokenize(sql), dialect);
}

describe("findDialectViolation", () => {
  it("reports TOP outside SQL Server and Snowflake with advice for the dialect", () => {
    expect(violation("SELECT TOP 5 * FROM t", "mysql")).toEqual({
      line: 1,
      column: 8,
      reason: "TOP clause is not supported in MySQL; use LIMIT/OFFSET instead",
    });
    expect(violation("SELECT DISTINCT TOP 5 a FROM t", "oracle")?.reason).toMatch(/ROWNUM/);
    expect(violation("SELECT TOP 5 * FROM t", "sqlserver")).toBeUndefined();
  });

  it("reports LIMIT in SQL Server and Oracle but not a column named limit", () => {
    expect(violation("SELECT a FROM t\n  LIMIT 5", "oracle")).toMatchObject({ line: 2, column: 3 });
    expect(violation("SELECT a FROM t LIMIT 5", "sqlserver")?.reason).toMatch(/^LIMIT clause/);
    expect(violation("SELECT limit, x FROM t", "sqlserver")).toBeUndefined();
    expect(violation("SELECT a FROM t LIMIT 5", "sqlite")).toBeUndefined();
  });

  it("reports :: casts outside PostgreSQL and Snowflake but allows T-SQL static methods", () => {
    expect(violation("SELECT a::int FROM t", "mysql")?.reason).toMatch(/'::' casts/);
    expect(violation("SELECT geography::Point(1, 2, 4326)", "sqlserver")).toBeUndefined();
    expect(violation("SELECT a::int FROM t", "snowflake")).toBeUndefined();
  });

  it("keeps QUALIFY to Snowflake, CONNECT BY to Oracle and Snowflake, (+) to Oracle", () => {
    expect(violation("SELECT * FROM t QUALIFY x = 1", "sqlserver")?.reason).toMatch(/QUALIFY/);
    expect(violation("SELECT * FROM t CONNECT BY PRIOR a = b", "mysql")?.reason).toMatch(
      /CONNECT BY/,
    );
    expect(violation("SELECT * FROM t CONNECT BY PRIOR a = b", "snowflake")).toBeUndefined();
    expect(violation("SELECT * FROM a, b WHERE a.x = b.x(+)", "snowflake")?.reason).toMatch(
      /\(\+\)/,
    );
    expect(violation("SELECT * FROM a, b WHERE a.x = b.x(+)", "oracle")).toBeUndefined();
  });

  it("keeps PRAGMA to SQLite, backticks to MySQL and SQLite, brackets to SQL Server and SQLite", () => {
    expect(violation("PRAGMA foreign_keys = ON", "mysql")?.reason).toMatch(/PRAGMA/);
    expect(violation("SELECT `a` FROM t", "sqlserver")?.reason).toMatch(/backtick/);
    expect(violation("SELECT [a] FROM t", "mysql")?.reason).toMatch(/square-bracket/);
    expect(violation("SELECT [a], `b` FROM t", "sqlite")).toBeUndefined();
  });

  it("keeps ILIKE to PostgreSQL and Snowflake and DISTINCT ON to PostgreSQL", () => {
    expect(violation("SELECT * FROM t WHERE a ILIKE 'x'", "mysql")?.reason).toMatch(/ILIKE/);
    expect(violation("SELECT DISTINCT ON (a) a FROM t", "snowflake")?.reason).toMatch(
      /DISTINCT ON/,
    );
  });

  it("keeps dialect phrases to their dialects, at the statement start where they are statements", () => {
    expect(violation("REPLACE INTO t VALUES (1)", "oracle")?.reason).toMatch(/^REPLACE INTO/);
    expect(violation("SELECT REPLACE(a, 'x', 'y') FROM t", "oracle")).toBeUndefined();
    expect(violation("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", "mysql")).toMatchObject({
      column: 26,
      reason: "ON CONFLICT is not supported in MySQL",
    });
    expect(violation("SELECT a FROM t ORDER BY a DESC", "sqlserver")).toBeUndefined();
    expect(violation("DESC t", "sqlserver")?.reason).toMatch(/^DESC statements/);
    expect(violation("SELECT a FROM t FETCH FIRST 5 ROWS ONLY", "mysql")?.reason).toMatch(
      /FETCH FIRST/,
    );
    expect(violation("SELECT * FROM a CROSS APPLY f(a.x)", "postgresql")?.reason).toMatch(
      /CROSS APPLY/,
    );
    expect(
      violation("WITH RECURSIVE t AS (SELECT 1) SELECT * FROM t", "sqlserver")?.reason,
    ).toMatch(/plain WITH/);
  });

  it("reads # as a comment only in MySQL", () => {
    expect(violation("SELECT a,\n#t.b\nFROM #t", "sqlserver")).toBeUndefined();
    expect(violation("SELECT a, # note\nFROM t", "mysql")).toMatchObject({ line: 2, column: 1 });
  });

  it("ignores dialect features inside strings and comments", () => {
    expect(violation("SELECT 'TOP 5 LIMIT 3' FROM t -- LIMIT 1", "sqlserver")).toBeUndefined();
    expect(violation("SELECT a /* ::int */ FROM t", "oracle")).toBeUndefined();
  });

  it("rejects an unterminated block comment and a trailing comma in every dialect, generic included", () => {
    for (const dialect of ["generic", "mysql", "oracle"] as const) {
      expect(violation("SELECT a FROM t /* open", dialect)).toEqual({
        line: 1,
        column: 17,
        reason: "unterminated block comment",
      });
      expect(violation("SELECT a,\nFROM t", dialect)).toEqual({
        line: 2,
        column: 1,
        reason: "unexpected FROM after ',', expected an expression",
      });
    }
  });
});
