import { describe, expect, it } from "vitest";
import { findDialectViolation } from "../../../core/sql/dialect-features.js";
import { SQL_DIALECTS, type SqlDialect } from "../../../core/sql/dialects.js";
import {
  findNonStatement,
  isStatementWord,
  statementStarts,
} from "../../../core/sql/statement-start.js";
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

  it("reports a violation before an unclosed comment first, as the first in the text (issue 9)", () => {
    expect(violation("SELECT TOP 1 a FROM t /* open", "mysql")).toMatchObject({
      line: 1,
      column: 8,
    });
    expect(violation("SELECT a,\nFROM t /* open", "generic")).toMatchObject({
      line: 2,
      column: 1,
    });
  });

  it("rejects a statement that starts with no statement word, in every dialect, at that word", () => {
    for (const dialect of SQL_DIALECTS) {
      expect(violation("SELEC * FRM t", dialect), dialect).toEqual({
        line: 1,
        column: 1,
        reason: "unexpected SELEC",
      });
      expect(violation("FOO BAR", dialect), dialect).toEqual({
        line: 1,
        column: 1,
        reason: "unexpected FOO",
      });
      expect(violation("1 + 1", dialect), dialect).toEqual({
        line: 1,
        column: 1,
        reason: 'unexpected "1"',
      });
      expect(violation("SELECT 1;\n  FOO", dialect), dialect).toEqual({
        line: 2,
        column: 3,
        reason: "unexpected FOO",
      });
    }
  });

  it("reports the first problem in the text, and a feature's own message at the same word", () => {
    expect(violation("SELECT TOP 1 a FROM t; FOO", "mysql")?.reason).toMatch(/^TOP clause/);
    expect(violation("FOO; SELECT TOP 1 a FROM t", "mysql")?.reason).toBe("unexpected FOO");
    expect(violation("PRAGMA table_info(t)", "mysql")?.reason).toBe(
      "PRAGMA statements are not supported in MySQL",
    );
    expect(violation("SHOW TABLES", "sqlserver")?.reason).toBe(
      "SHOW statements are not supported in SQL Server",
    );
  });
});

describe("findNonStatement", () => {
  function check(sql: string, dialect: SqlDialect) {
    return findNonStatement(tokenize(sql), dialect);
  }

  it("accepts each dialect's own statement verbs and rejects other dialects' ones", () => {
    expect(check("PRINT 'x'", "sqlserver")).toBeUndefined();
    expect(check("PRINT 'x'", "mysql")).toEqual({
      line: 1,
      column: 1,
      reason: "unexpected PRINT",
    });
    expect(check("VACUUM", "sqlite")).toBeUndefined();
    expect(check("VACUUM", "oracle")?.reason).toBe("unexpected VACUUM");
    expect(check("UNDROP TABLE t", "snowflake")).toBeUndefined();
    expect(check("LOCK TABLES t READ; UNLOCK TABLES", "mysql")).toBeUndefined();
  });

  it("accepts in generic every word any dialect starts a statement with", () => {
    for (const sql of ["PRINT 'x'", "VACUUM", "UNDROP TABLE t", "LISTEN ch", "PRAGMA x"]) {
      expect(check(sql, "generic"), sql).toBeUndefined();
    }
  });

  it("accepts a parenthesised query, lower-case words and comments before a statement", () => {
    expect(check("(SELECT 1) UNION (SELECT 2)", "oracle")).toBeUndefined();
    expect(check("-- note\n/* more */ select 1; ;; insert into t values (1)", "sqlite")).toBe(
      undefined,
    );
  });

  it("splits statements only at semicolons outside parentheses", () => {
    expect(check("SELECT f(a; b); SELECT 2", "mysql")).toBeUndefined();
    expect(statementStarts(tokenize("SELECT ';'; (x; y); z")).map((t) => t.text)).toEqual([
      "SELECT",
      "(",
      "z",
    ]);
  });

  it("leaves the statements inside procedural blocks to the grammar", () => {
    expect(
      check("CREATE PROCEDURE p AS BEGIN SET NOCOUNT ON; RETURN; END", "sqlserver"),
    ).toBeUndefined();
    expect(
      check("CREATE FUNCTION f RETURN NUMBER IS n NUMBER; BEGIN RETURN 1; END;", "oracle"),
    ).toBeUndefined();
    expect(check("BEGIN TRY SELECT 1; END TRY BEGIN CATCH x; END CATCH", "sqlserver")).toBe(
      undefined,
    );
  });

  it("still checks the statements after a transaction's BEGIN", () => {
    expect(check("BEGIN TRANSACTION; FOO; COMMIT", "sqlserver")).toMatchObject({
      column: 20,
      reason: "unexpected FOO",
    });
    expect(check("BEGIN; FOO", "sqlite")?.reason).toBe("unexpected FOO");
  });

  it("names long and non-word tokens quoted and cut", () => {
    expect(check("'abc' x", "mysql")?.reason).toBe(`unexpected "'abc'"`);
    expect(check(`${"x".repeat(50)} y`, "mysql")?.reason).toBe(`unexpected ${"x".repeat(40)}…`);
  });

  it("matches statement words in any case", () => {
    expect(isStatementWord("pragma", "sqlite")).toBe(true);
    expect(isStatementWord("SELEC", "generic")).toBe(false);
  });
});
