import { beforeAll, describe, expect, it } from "vitest";
import { LibpgQuerySqlParser } from "../../../../adapters/sql/index.js";
import { cleanPgMessage } from "../../../../adapters/sql/libpg-query-sql-parser.js";
import type { ParsedStatement } from "../../../../core/ports/sql-parser.js";
import { DIALECT_SQL, INVALID_SQL, PORTABLE_SQL } from "../../../fixtures/sql/corpus.js";
import { describeSqlParserContract } from "../../../contracts/sql-parser-contract.js";

const parser = new LibpgQuerySqlParser();
beforeAll(async () => {
  await parser.load();
});

function only(sql: string): ParsedStatement {
  const result = parser.parse(sql, "postgresql");
  if (!result.ok) throw new Error(`expected ${sql} to parse: ${result.error.reason}`);
  expect(result.statements).toHaveLength(1);
  return result.statements[0] as ParsedStatement;
}

describeSqlParserContract("LibpgQuerySqlParser", ["postgresql"], () => new LibpgQuerySqlParser());

describe("LibpgQuerySqlParser", () => {
  it("refuses to parse before load()", () => {
    expect(() => new LibpgQuerySqlParser().parse("SELECT 1", "postgresql")).toThrow(/load/);
  });

  it.each([
    ["SELECT 1", "Select"],
    ["WITH c AS (SELECT 1) SELECT * FROM c", "Select"],
    ["VALUES (1), (2)", "Select"],
    ["SELECT 1 UNION SELECT 2", "SetOperation"],
    ["SELECT 1 EXCEPT SELECT 2", "SetOperation"],
    ["INSERT INTO t VALUES (1)", "Insert"],
    ["WITH c AS (SELECT 1) INSERT INTO t SELECT * FROM c", "Insert"],
    ["UPDATE t SET a = 1", "Update"],
    ["DELETE FROM t", "Delete"],
    ["MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "Merge"],
    ["CREATE TABLE t (id int)", "CreateTable"],
    ["CREATE TABLE t2 AS SELECT 1", "CreateTable"],
    ["CREATE INDEX i ON t (a)", "CreateIndex"],
    ["CREATE VIEW v AS SELECT 1", "CreateView"],
    ["CREATE MATERIALIZED VIEW mv AS SELECT 1", "CreateMaterializedView"],
    ["REFRESH MATERIALIZED VIEW mv", "RefreshMaterializedView"],
    ["DROP TABLE t", "Drop"],
    ["DROP INDEX i", "Drop"],
    ["ALTER TABLE t ADD COLUMN b int", "Alter"],
    ["TRUNCATE t", "Truncate"],
    ["SHOW search_path", "Show"],
    ["EXPLAIN SELECT 1", "Describe"],
    ["BEGIN", "Transaction"],
    ["SET search_path = public", "Set"],
    ["GRANT SELECT ON t TO bob", "Grant"],
    ["COPY t FROM STDIN", "Copy"],
  ])("names the kind of %s %s", (sql, kind) => {
    expect(only(sql).kind).toBe(kind);
  });

  it("lists tables as written, qualified names whole and quotes removed", () => {
    const s = only('SELECT * FROM Public."Users" u JOIN sales.Orders o ON u.id = o.uid');
    expect(s.tables).toEqual(["Public.Users", "sales.Orders"]);
  });

  it("leaves CTE names out of the tables and lists tables in source order", () => {
    const s = only("WITH recent AS (SELECT * FROM orders) SELECT * FROM recent JOIN users ON true");
    expect(s.tables).toEqual(["orders", "users"]);
  });

  it("lists a column once per distinct (table, column) pair, without *", () => {
    const s = only(
      "SELECT u.id, o.id, u.id, *, t.* FROM users u JOIN orders o ON u.id = o.user_id",
    );
    expect(s.columns).toEqual(["id", "id", "user_id"]);
  });

  it("counts INSERT column lists and UPDATE SET targets as columns, not select aliases", () => {
    expect(only("INSERT INTO t (Name, email) VALUES ('a', 'b')").columns).toEqual([
      "Name",
      "email",
    ]);
    expect(only("UPDATE t SET a = b + 1 WHERE c = 2").columns).toEqual(["a", "b", "c"]);
    expect(only("SELECT price * 2 AS doubled FROM t").columns).toEqual(["price"]);
  });

  it("lists functions as written, each once, including SQL-syntax functions", () => {
    const s = only(
      "SELECT COUNT(*), count(x), TRIM(name), Coalesce(a, b), NULLIF(c, d), GREATEST(1, 2), pg_catalog.now(), CAST(e AS int) FROM t",
    );
    expect(s.functions).toEqual([
      "COUNT",
      "count",
      "TRIM",
      "Coalesce",
      "NULLIF",
      "GREATEST",
      "pg_catalog.now",
    ]);
  });

  it("recovers names as written after non-ASCII text (byte offsets)", () => {
    const s = only("SELECT 'héllo wörld', Größe FROM Tabelle_ü WHERE MAX_ü(x) > 1");
    expect(s.tables).toEqual(["Tabelle_ü"]);
    expect(s.columns).toEqual(["Größe", "x"]);
    expect(s.functions).toEqual(["MAX_ü"]);
  });

  it("reports syntax errors with a 1-based line and a column in characters", () => {
    expect(parser.parse("SELECT 'ü', é\nFROM t WHERE x = = 1", "postgresql")).toEqual({
      ok: false,
      error: { line: 2, column: 18, reason: 'unexpected "="' },
    });
    expect(parser.parse("SELECT id,\n  FROM t", "postgresql")).toEqual({
      ok: false,
      error: { line: 2, column: 3, reason: "unexpected FROM" },
    });
  });

  it("parses comment-only input to no statements (issue 25)", () => {
    for (const sql of ["-- just a comment", "/* c */", ";"]) {
      expect(parser.parse(sql, "postgresql"), sql).toEqual({ ok: true, statements: [] });
      expect(parser.check(sql, "postgresql"), sql).toBeUndefined();
    }
  });

  it("treats empty input as an error", () => {
    for (const sql of ["", "   "]) {
      const result = parser.parse(sql, "postgresql");
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error).toEqual({
          line: 1,
          column: 1,
          reason: "empty input: no SQL statement found",
        });
    }
  });

  it("serialises a statement as the neutral model only", () => {
    expect(JSON.parse(JSON.stringify(only("SELECT a FROM t")))).toEqual({
      kind: "Select",
      tables: ["t"],
      columns: ["a"],
      functions: [],
    });
  });

  it("checks with the verdict and the error parse gives, without building statements", () => {
    const texts = [
      ...PORTABLE_SQL,
      ...Object.values(DIALECT_SQL).flat(),
      ...INVALID_SQL,
      "",
      ";;",
      "-- only a comment",
      "\uFEFFSELECT 1",
      "SELECT 'ü', é\nFROM t WHERE x = = 1",
      "SELECT 1; SELECT FROM",
    ];
    for (const sql of texts) {
      const parsed = parser.parse(sql, "postgresql");
      expect(parser.check(sql, "postgresql"), sql).toEqual(parsed.ok ? undefined : parsed.error);
    }
  });

  it("skips empty statements between semicolons", () => {
    const result = parser.parse("SELECT 1;;SELECT 2;", "postgresql");
    expect(result.ok && result.statements.map((s) => s.kind)).toEqual(["Select", "Select"]);
  });

  it("gives the same statements when told the names will be read (one read of the tree)", () => {
    const texts = [
      ...PORTABLE_SQL,
      "SELECT 1 UNION SELECT 2; GRANT SELECT ON t TO bob;; REVOKE SELECT ON t FROM bob",
      "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t; CREATE TABLE t2 AS SELECT 1",
      "-- only a comment",
    ];
    for (const sql of texts) {
      const plain = parser.parse(sql, "postgresql");
      const named = parser.parse(sql, "postgresql", { names: true });
      expect(JSON.stringify(named), sql).toBe(JSON.stringify(plain));
    }
  });
});

describe("cleanPgMessage", () => {
  it("turns PostgreSQL's messages into reasons without positions", () => {
    expect(cleanPgMessage('syntax error at or near "FROM"')).toBe("unexpected FROM");
    expect(cleanPgMessage('syntax error at or near ","')).toBe('unexpected ","');
    expect(cleanPgMessage("syntax error at end of input")).toBe("unexpected end of input");
    expect(cleanPgMessage(`unterminated quoted string at or near "'abc"`)).toBe(
      "unterminated quoted string",
    );
  });
});
