import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import { SQL_DIALECTS } from "../../../core/sql/dialects.js";
import { extractMetadata } from "../../../core/sql/metadata.js";
import { parseSql } from "../../../core/sql/parse.js";
import { validateSql } from "../../../core/sql/validate.js";
import { loadedParser } from "./loaded-parser.js";

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

describe("missing operands (issue 8)", () => {
  it("rejects WHERE AND and WHERE OR in every dialect with the position of the word", () => {
    for (const dialect of SQL_DIALECTS) {
      for (const word of ["AND", "OR"]) {
        const result = validateSql(parser, `SELECT id FROM users WHERE ${word}`, dialect);
        expect(result.valid, `${dialect} ${word}`).toBe(false);
        expect(result.error, dialect).toMatch(
          new RegExp(`^invalid SQL: line 1, column 28: unexpected ${word}`),
        );
      }
    }
    expect(validateSql(parser, "SELECT id FROM users WHERE AND", "mysql").error).toBe(
      "invalid SQL: line 1, column 28: unexpected AND, expected a condition",
    );
    expect(validateSql(parser, "SELECT a FROM t GROUP BY a HAVING OR", "oracle").valid).toBe(false);
    expect(validateSql(parser, "SELECT * FROM a JOIN b ON AND", "snowflake").valid).toBe(false);
  });

  it("rejects an empty IN list everywhere but SQLite, which allows it", () => {
    for (const dialect of SQL_DIALECTS) {
      const result = validateSql(parser, "SELECT id FROM users WHERE x IN ()", dialect);
      expect(result.valid, dialect).toBe(dialect === "sqlite");
      if (dialect !== "sqlite") expect(result.error, dialect).toMatch(/column 34: unexpected "\)"/);
    }
    expect(validateSql(parser, "SELECT id FROM users WHERE x NOT IN ()", "sqlserver").error).toBe(
      'invalid SQL: line 1, column 38: unexpected ")", IN needs at least one value',
    );
  });

  it("never parses AND or OR as a column for parse_sql and extract_metadata", () => {
    for (const sql of [
      "SELECT id FROM users WHERE AND",
      "SELECT id FROM users WHERE OR",
      "SELECT id FROM users WHERE x IN ()",
    ]) {
      expect(parseSql(parser, sql).ok, sql).toBe(false);
      const metadata = extractMetadata(parser, sql);
      expect(metadata.ok, sql).toBe(false);
      if (!metadata.ok) expect(metadata.error, sql).toMatch(/^parse failed: line 1, column \d+: /);
    }
  });

  it("still accepts AND and OR as operators, BETWEEN … AND, OR REPLACE and non-empty IN lists", () => {
    for (const dialect of SQL_DIALECTS) {
      for (const sql of [
        "SELECT * FROM t WHERE a BETWEEN 1 AND 2 AND b = 1 OR c IN (1, 2)",
        "SELECT * FROM t WHERE (a = 1 OR b = 2) AND NOT c = 3",
      ]) {
        expect(validateSql(parser, sql, dialect), `${dialect}: ${sql}`).toMatchObject({
          valid: true,
        });
      }
    }
    expect(validateSql(parser, "CREATE OR REPLACE VIEW v AS SELECT 1 FROM dual", "oracle")).toEqual(
      { valid: true, dialect: "oracle" },
    );
  });
});

describe("Oracle multi-table inserts (issue 8)", () => {
  const insertAll = "INSERT ALL INTO t1 (a) VALUES (x) INTO t2 (b) VALUES (y) SELECT x, y FROM src";
  const insertFirst =
    "INSERT FIRST WHEN x > 10 THEN INTO t1 VALUES (x) ELSE INTO t2 VALUES (x) SELECT x FROM src";

  it("accepts INSERT ALL … SELECT and INSERT FIRST WHEN … in Oracle, Snowflake and generic", () => {
    for (const sql of [insertAll, insertFirst]) {
      for (const dialect of ["oracle", "snowflake"]) {
        expect(validateSql(parser, sql, dialect), `${dialect}: ${sql}`).toEqual({
          valid: true,
          dialect,
        });
      }
      expect(validateSql(parser, sql)).toEqual({ valid: true });
    }
  });

  it("rejects them with a named reason in dialects without multi-table inserts", () => {
    expect(validateSql(parser, insertAll, "mysql").error).toBe(
      "invalid SQL: line 1, column 1: multi-table INSERT ALL is not supported in MySQL",
    );
    expect(validateSql(parser, insertFirst, "sqlserver").error).toBe(
      "invalid SQL: line 1, column 1: multi-table INSERT FIRST is not supported in SQL Server",
    );
    expect(validateSql(parser, insertAll, "postgresql").valid).toBe(false);
  });

  it("parses a multi-table insert as one InsertStatement with every target table", () => {
    expect(parseSql(parser, insertAll)).toEqual({
      ok: true,
      result: { statement_count: 1, statement_types: ["*ast.InsertStatement"] },
    });
    const metadata = extractMetadata(parser, insertAll);
    expect(metadata.ok && metadata.result.tables).toEqual(["t1", "t2", "src"]);
  });
});

describe("metadata names (issue 8)", () => {
  function metadata(sql: string) {
    const outcome = extractMetadata(parser, sql);
    if (!outcome.ok) throw new Error(outcome.error);
    return outcome.result;
  }

  it("does not report AT of AT TIME ZONE as a function", () => {
    expect(metadata("SELECT created_at AT TIME ZONE 'UTC', now() FROM events")).toEqual({
      tables: ["events"],
      columns: ["created_at"],
      functions: ["now"],
    });
  });

  it("does not report T-SQL variables or ROWNUM as columns, in either grammar", () => {
    // PostgreSQL's grammar reads `@id` as its `@` operator on a column `id`.
    expect(metadata("SELECT name FROM users WHERE id = @id").columns).toEqual(["name", "id"]);
    expect(metadata("SELECT name FROM users WHERE code = @code").columns).toEqual(["name", "code"]);
    expect(metadata("SELECT name FROM users WHERE code = @other").columns).toEqual([
      "name",
      "code",
    ]);
    // `SELECT TOP` is T-SQL only: the multi-dialect grammar answers.
    expect(metadata("SELECT TOP 5 name FROM users WHERE code = @code").columns).toEqual([
      "name",
      "code",
    ]);
    expect(metadata("SELECT id FROM users WHERE ROWNUM <= 10").columns).toEqual(["id"]);
    expect(metadata("SELECT TOP 5 id FROM users WHERE ROWNUM <= 10").columns).toEqual(["id"]);
  });

  it("keeps a column once per table: twice across a UNION of two tables, once per alias", () => {
    expect(metadata("SELECT email FROM customers UNION SELECT email FROM subscribers")).toEqual({
      tables: ["customers", "subscribers"],
      columns: ["email", "email"],
      functions: [],
    });
    expect(
      metadata("SELECT TOP 5 email FROM customers UNION SELECT email FROM subscribers").columns,
    ).toEqual(["email", "email"]);
    expect(metadata("SELECT u.id, id, users.id FROM users u").columns).toEqual(["id"]);
    expect(metadata("SELECT users.id, id FROM users").columns).toEqual(["id"]);
    expect(
      metadata("SELECT email FROM customers UNION SELECT email FROM customers").columns,
    ).toEqual(["email"]);
    expect(
      metadata("SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id)").columns,
    ).toEqual(["id", "a_id"]);
  });
});
