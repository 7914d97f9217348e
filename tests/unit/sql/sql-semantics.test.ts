/**
 * Issue 25: the optional capabilities users of sqlglot and polyglot reach for, each off by
 * default: a schema for validate_sql, a target dialect for format_sql, lineage for
 * extract_metadata (the routing parser's `SqlSemantics`, over polyglot).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { SqlParser } from "../../../core/ports/sql-parser.js";
import type { SqlToolkit } from "../../../core/sql/results.js";
import { MAX_LINEAGE_COLUMNS, MAX_LINEAGE_WORK } from "../../../core/sql/lineage.js";
import type { SqlDialect } from "../../../core/sql/dialects.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { DIALECT_SQL } from "../../fixtures/sql/corpus.js";
import { loadedParser } from "./loaded-parser.js";

const SCHEMA = {
  users: ["id", "name", "email"],
  "sales.orders": { id: "int", user_id: "int", amount: "numeric" },
};

let tools: SqlToolkit;
let parser: SqlParser;
beforeAll(async () => {
  parser = await loadedParser();
  tools = createSqlToolkit(parser);
});

describe("validate_sql with a schema", () => {
  it(
    "reports unknown tables, unknown columns and ambiguous references with positions",
    { timeout: 60_000 },
    () => {
      expect(tools.validate("SELECT nme FROM users", undefined, { schema: SCHEMA }).result).toEqual(
        {
          valid: false,
          error: "invalid SQL: line 1, column 8: unknown column 'nme' in table 'users'",
          errors: [
            {
              code: "unknown_column",
              message: "unknown column 'nme' in table 'users'",
              line: 1,
              column: 8,
            },
          ],
          schema_checked: true,
        },
      );
      expect(
        tools.validate("SELECT id\nFROM users\nJOIN nowhere n ON n.id = users.id", "postgresql", {
          schema: SCHEMA,
        }).result,
      ).toMatchObject({
        valid: false,
        dialect: "postgresql",
        errors: [{ code: "unknown_table", line: 3, column: 6 }],
      });
      const ambiguous = tools.validate(
        "SELECT u.name FROM users u JOIN sales.orders o ON u.id = o.user_id WHERE id = 1",
        undefined,
        { schema: SCHEMA },
      ).result;
      expect(ambiguous).toMatchObject({
        valid: false,
        errors: [{ code: "ambiguous_column", line: 1, column: 74 }],
      });
    },
  );

  it("accepts SQL whose every name is in the schema, and keeps the seed's shape without one", () => {
    const sql = "SELECT u.name, o.amount FROM users u JOIN sales.orders o ON u.id = o.user_id";
    expect(tools.validate(sql, undefined, { schema: SCHEMA }).result).toEqual({
      valid: true,
      errors: [],
      schema_checked: true,
    });
    expect(tools.validate("SELECT nme FROM users").result).toEqual({ valid: true });
  });

  it("reports a syntax error as the only problem, names unchecked", () => {
    expect(
      tools.validate("SELEC id FROM users", undefined, { schema: SCHEMA }).result,
    ).toMatchObject({
      valid: false,
      errors: [{ code: "syntax_error", line: 1 }],
      schema_checked: false,
    });
  });
});

describe("format_sql with a target dialect", () => {
  it(
    "transpiles from the dialect to the target, then formats, echoing the target as given",
    { timeout: 60_000 },
    () => {
      expect(tools.format("SELECT TOP 5 name FROM users", {}, "sqlserver", "PostgreSQL")).toEqual({
        ok: true,
        result: {
          formatted_sql: "SELECT name\nFROM users\nLIMIT 5",
          options: { indent_size: 2, uppercase_keywords: false, add_semicolon: false },
          target_dialect: "PostgreSQL",
        },
      });
      const moved = tools.format(
        "SELECT IFNULL(a, b) FROM t LIMIT 3; SELECT 1",
        { add_semicolon: true },
        "mysql",
        "sqlserver",
      );
      expect(moved).toMatchObject({
        ok: true,
        result: { formatted_sql: "SELECT TOP 3 ISNULL(a, b)\nFROM t;\n\nSELECT 1;" },
      });
      if (moved.ok) {
        expect(tools.validate(moved.result.formatted_sql, "sqlserver").result.valid).toBe(true);
      }
    },
  );

  it("fails as format does, naming both dialects, on SQL the source dialect rejects", () => {
    expect(tools.format("SELECT * FROM t LIMIT 5", {}, "sqlserver", "mysql")).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^format failed: cannot transpile from sqlserver to mysql: line 1, column \d+: /,
      ),
    });
    expect(tools.format("*/*/*/", {}, "mysql", "postgresql").ok).toBe(false);
  });
});

describe("format_sql with a target dialect, on what the target rejects", () => {
  it("never answers SQL the target dialect does not accept", { timeout: 120_000 }, () => {
    const dialects = Object.keys(DIALECT_SQL) as SqlDialect[];
    let checked = 0;
    for (const from of dialects) {
      for (const sql of DIALECT_SQL[from].slice(0, 4)) {
        for (const to of dialects) {
          const outcome = tools.format(sql, {}, from, to);
          if (!outcome.ok) continue;
          checked++;
          const verdict = tools.validate(outcome.result.formatted_sql, to).result;
          expect(verdict.error, `${from} -> ${to}: ${sql}`).toBeUndefined();
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("fails naming the target and the result's problem instead", () => {
    // The transpiler writes T-SQL's TOP n as LIMIT n for Oracle, and passes SQLite's PRAGMA on.
    expect(tools.format("SELECT TOP 10 a FROM t ORDER BY a", {}, "sqlserver", "oracle")).toEqual({
      ok: false,
      error:
        "format failed: cannot transpile from sqlserver to oracle: the result is not valid oracle SQL: " +
        "LIMIT clause is not supported in Oracle; use FETCH FIRST n ROWS ONLY or ROWNUM instead " +
        '(line 1 of the result: "SELECT a FROM t ORDER BY a NULLS FIRST LIMIT 10")',
    });
    expect(tools.format("PRAGMA table_info(users)", {}, "sqlite", "mysql")).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^format failed: cannot transpile from sqlite to mysql: the result is not valid mysql SQL: PRAGMA/,
      ),
    });
    expect(tools.format("SELECT * FROM t LIMIT 5", {}, "mysql", "oracle")).toMatchObject({
      ok: true,
      result: { formatted_sql: "SELECT *\nFROM t FETCH FIRST 5 ROWS ONLY" },
    });
  });
});

describe("extract_metadata with lineage", () => {
  it(
    "traces each output column to its table columns through aliases, CTEs and subqueries",
    { timeout: 60_000 },
    () => {
      const sql =
        "WITH c AS (SELECT id, name AS nm FROM users)\n" +
        "SELECT c.nm, s.total FROM c JOIN (SELECT user_id, SUM(amount) AS total FROM sales.orders GROUP BY user_id) s ON s.user_id = c.id;\n" +
        "INSERT INTO audit VALUES (1);\n" +
        "SELECT 1 AS one, u.email FROM users u";
      const outcome = tools.metadata(sql, { lineage: true });
      expect(outcome).toMatchObject({ ok: true });
      if (!outcome.ok) return;
      expect(outcome.result.lineage).toEqual([
        { statement: 1, column: "nm", sources: ["users.name"] },
        { statement: 1, column: "total", sources: ["sales.orders.amount"] },
        { statement: 3, column: "one", sources: [] },
        { statement: 3, column: "email", sources: ["users.email"] },
      ]);
      // The seed's three lists are the same with and without lineage.
      const { lineage: _traced, ...lists } = outcome.result;
      expect({ ok: true, result: lists }).toEqual(tools.metadata(sql));
    },
  );

  it("traces at most MAX_LINEAGE_COLUMNS output columns", { timeout: 120_000 }, () => {
    const columns = Array.from({ length: MAX_LINEAGE_COLUMNS + 20 }, (_, i) => `c${i}`);
    const outcome = tools.metadata(`SELECT ${columns.join(", ")} FROM t`, { lineage: true });
    expect(outcome.ok && outcome.result.lineage?.length).toBe(MAX_LINEAGE_COLUMNS);
  });

  it(
    "reads statements for at most MAX_LINEAGE_WORK characters in all",
    { timeout: 120_000 },
    () => {
      // Each column's trace re-reads its statement: a long one gets fewer columns traced.
      const padding = ` /* ${"x".repeat(64 * 1024)} */`;
      const sql = `SELECT a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t FROM t${padding}`;
      const outcome = tools.metadata(sql, { lineage: true });
      const traced = outcome.ok ? (outcome.result.lineage ?? []) : [];
      expect(traced.length).toBe(Math.floor(MAX_LINEAGE_WORK / sql.length) - 1);
      expect(traced[0]).toEqual({ statement: 1, column: "a", sources: ["t.a"] });
    },
  );

  it("is invalid input on a toolkit whose parser has no semantic analysis", () => {
    const plain: SqlParser = { load: () => parser.load(), parse: (s, d) => parser.parse(s, d) };
    expect(() => createSqlToolkit(plain).metadata("SELECT a FROM t", { lineage: true })).toThrow(
      "lineage: this parser has no semantic analysis",
    );
  });
});
