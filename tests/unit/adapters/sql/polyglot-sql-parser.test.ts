import { beforeAll, describe, expect, it } from "vitest";
import { PolyglotSqlParser } from "../../../../adapters/sql/index.js";
import { findCallSites } from "../../../../adapters/sql/polyglot-functions.js";
import { blankLeadingComments } from "../../../../adapters/sql/polyglot-sql-parser.js";
import { isPolyglotStatementNode } from "../../../../adapters/sql/polyglot-statement-node.js";
import type { ParsedStatement } from "../../../../core/ports/sql-parser.js";
import type { SqlDialect } from "../../../../core/sql/dialects.js";
import { describeSqlParserContract } from "../../../contracts/sql-parser-contract.js";

const parser = new PolyglotSqlParser();
beforeAll(async () => {
  await parser.load();
});

function only(sql: string, dialect: SqlDialect): ParsedStatement {
  const result = parser.parse(sql, dialect);
  if (!result.ok) throw new Error(`expected ${sql} to parse: ${result.error.reason}`);
  expect(result.statements).toHaveLength(1);
  return result.statements[0] as ParsedStatement;
}

/** The dialects the routing parser sends to polyglot (PostgreSQL goes to libpg-query). */
const POLYGLOT_DIALECTS: SqlDialect[] = [
  "generic",
  "mysql",
  "sqlite",
  "sqlserver",
  "oracle",
  "snowflake",
];

describeSqlParserContract("PolyglotSqlParser", POLYGLOT_DIALECTS, () => new PolyglotSqlParser(), {
  // Polyglot's dialect modes are lenient (see the adapter's doc comment): it takes a trailing
  // comma in a select list and an unterminated block comment; RoutingSqlParser rejects both.
  lenientAbout: ["SELECT id, FROM users", "SELECT id FROM users /* unterminated"],
});

describe("PolyglotSqlParser", () => {
  it("refuses to parse before load()", () => {
    expect(() => new PolyglotSqlParser().parse("SELECT 1", "mysql")).toThrow(/load/);
  });

  it.each<[string, SqlDialect, string]>([
    ["SELECT 1", "mysql", "Select"],
    ["SELECT 1 UNION ALL SELECT 2", "mysql", "SetOperation"],
    ["SELECT 1 INTERSECT SELECT 2", "oracle", "SetOperation"],
    ["INSERT INTO t (a) VALUES (1)", "sqlite", "Insert"],
    ["REPLACE INTO t (a) VALUES (1)", "mysql", "Replace"],
    ["UPDATE t SET a = 1", "sqlserver", "Update"],
    ["DELETE FROM t WHERE a = 1", "oracle", "Delete"],
    ["MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "snowflake", "Merge"],
    ["CREATE TABLE t (id INT)", "mysql", "CreateTable"],
    ["CREATE INDEX i ON t (a)", "sqlite", "CreateIndex"],
    ["CREATE VIEW v AS SELECT 1", "sqlserver", "CreateView"],
    ["CREATE MATERIALIZED VIEW mv AS SELECT 1", "snowflake", "CreateMaterializedView"],
    ["DROP TABLE t", "oracle", "Drop"],
    ["ALTER TABLE t ADD b INT", "mysql", "Alter"],
    ["TRUNCATE TABLE t", "mysql", "Truncate"],
    ["SHOW TABLES", "mysql", "Show"],
    ["DESCRIBE t", "mysql", "Describe"],
    ["PRAGMA table_info(t)", "sqlite", "Pragma"],
  ])("names the kind of %s (%s) %s", (sql, dialect, kind) => {
    expect(only(sql, dialect).kind).toBe(kind);
  });

  it("lists tables as written, qualified names whole, quotes removed, CTEs excluded", () => {
    const s = only(
      "WITH c AS (SELECT id FROM [Sales].[Orders]) SELECT * FROM c JOIN dbo.Users u ON c.id = u.id",
      "sqlserver",
    );
    expect(s.tables).toEqual(["Sales.Orders", "dbo.Users"]);
  });

  it("lists one column per distinct (table, column) pair in source order", () => {
    const s = only("SELECT u.id, o.id FROM users u JOIN orders o ON u.id = o.user_id", "mysql");
    expect(s.columns).toEqual(["id", "id", "user_id"]);
  });

  it("recovers the spelling of built-in functions from the text", () => {
    const s = only(
      "SELECT upper(name), LEN(x), Coalesce(a, b), my_Func(y), COUNT(*) FROM t",
      "sqlserver",
    );
    expect(s.functions).toEqual(["upper", "LEN", "Coalesce", "my_Func", "COUNT"]);
  });

  it("lists Oracle functions and keeps pseudo-columns out of the columns", () => {
    const s = only("SELECT NVL(a, b) FROM emp WHERE ROWNUM <= 5", "oracle");
    expect(s.functions).toEqual(["NVL"]);
    expect(s.columns).toEqual(["a", "b"]);
  });

  it("counts INSERT column lists and UPDATE SET targets as columns", () => {
    expect(only("INSERT INTO t (a, b) SELECT c, d FROM u", "mysql").columns).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    expect(only("UPDATE t SET a = 1 WHERE b = 2", "mysql").columns).toEqual(["a", "b"]);
  });

  it("positions errors at the offending token and names it", () => {
    expect(parser.parse("SELECT a\nFROM t WHERE x = = 1", "mysql")).toEqual({
      ok: false,
      error: { line: 2, column: 18, reason: 'unexpected "="' },
    });
    expect(parser.parse("SELECT FROM", "mysql")).toEqual({
      ok: false,
      error: { line: 1, column: 8, reason: "unexpected FROM, expected table name or subquery" },
    });
  });

  it("gives the same verdict from check() as from parse()", () => {
    for (const sql of ["SELECT 1", "SELECT FROM", "", "SELECT a FROM t WHERE"]) {
      expect(parser.check(sql, "oracle") === undefined).toBe(parser.parse(sql, "oracle").ok);
    }
  });

  it("rejects a bare expression where a statement goes, at that statement's first token", () => {
    const cases: [string, number, number, string][] = [
      ["SELEC * FRM t", 1, 1, "unexpected SELEC"],
      ["FOO BAR", 1, 1, "unexpected FOO"],
      ["1 + 1", 1, 1, 'unexpected "1"'],
      ["SELECT 1; FOO", 1, 11, "unexpected FOO"],
      ["SELECT 1;\n(1 + 2)", 2, 1, 'unexpected "("'],
    ];
    for (const dialect of POLYGLOT_DIALECTS) {
      for (const [sql, line, column, reason] of cases) {
        const error = { line, column, reason };
        expect(parser.parse(sql, dialect), `${dialect}: ${sql}`).toEqual({ ok: false, error });
        expect(parser.check(sql, dialect), `${dialect}: ${sql}`).toEqual(error);
      }
    }
  });

  it("keeps accepting statements the engine parses as commands, and parenthesised queries", () => {
    for (const [sql, dialect] of [
      ["(SELECT 1) UNION (SELECT 2)", "mysql"],
      ["((SELECT 1))", "oracle"],
      ["PRINT 'x'", "sqlserver"],
      ["VACUUM", "sqlite"],
      ["BEGIN TRANSACTION", "snowflake"],
    ] as const) {
      expect(parser.parse(sql, dialect).ok, sql).toBe(true);
      expect(parser.check(sql, dialect), sql).toBeUndefined();
    }
  });
});

describe("isPolyglotStatementNode", () => {
  it("takes statement variants and queries in parentheses, not expressions", () => {
    expect(isPolyglotStatementNode({ select: {} })).toBe(true);
    expect(
      isPolyglotStatementNode({ subquery: { this: { paren: { this: { union: {} } } } } }),
    ).toBe(true);
    expect(isPolyglotStatementNode({ alias: {} })).toBe(false);
    expect(isPolyglotStatementNode({ column: {} })).toBe(false);
    expect(isPolyglotStatementNode({ paren: { this: { add: {} } } })).toBe(false);
    expect(isPolyglotStatementNode({ paren: { this: null } })).toBe(false);
    expect(isPolyglotStatementNode({})).toBe(false);
  });
});

describe("findCallSites", () => {
  it("finds words followed by a parenthesis outside strings and comments", () => {
    const sites = findCallSites("SELECT upper (x), 'f(y)' -- g(z)\n, \"h\"(1), /* k(2) */ Len(a)");
    expect(sites.map((s) => s.text)).toEqual(["upper", "Len"]);
  });
});

describe("PolyglotSqlParser with a comment opening the text", () => {
  it("parses a T-SQL IF statement after a leading comment as the check accepts it", () => {
    // From sqlfluff's tsql/create_function.sql: the parse read `IF (…)` as the IF() function.
    const sql =
      "--Special cases: Jan 1-3 may belong to the previous year\n    IF (@ISOweek=0)\n        SET @ISOweek=1";
    expect(parser.check(sql, "sqlserver")).toBeUndefined();
    const parsed = parser.parse(sql, "sqlserver");
    expect(parsed.ok).toBe(true);
    expect(parser.parse(`/* note */ ${sql}`, "sqlserver").ok).toBe(true);
  });

  it("keeps the positions of errors after the blanked comments", () => {
    const parsed = parser.parse("-- note\n/* more */ SELEC 1", "sqlserver");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatchObject({
      line: 2,
      column: 18,
      reason: 'unexpected "1"',
    });
  });

  it("blanks only the comments before the first token, keeping every position", () => {
    expect(blankLeadingComments("-- a\n /* b */ IF x -- c")).toBe("    \n         IF x -- c");
    expect(blankLeadingComments("SELECT 1 -- c")).toBe("SELECT 1 -- c");
    expect(blankLeadingComments("/* open")).toBe("/* open");
  });
});
