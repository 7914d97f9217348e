import { beforeAll, describe, expect, it } from "vitest";
import { outlinePgStatements, type PgNode } from "../../../../adapters/sql/pg-json-outline.js";
import { PgQueryWasm } from "../../../../adapters/sql/pg-query-wasm.js";
import { pgStatementKind } from "../../../../adapters/sql/pg-statement.js";
import { DIALECT_SQL, PORTABLE_SQL } from "../../../fixtures/sql/corpus.js";

let pg: PgQueryWasm;
beforeAll(async () => {
  pg = await PgQueryWasm.load();
});

function treeOf(sql: string): string {
  const parsed = pg.parse(sql);
  if (!parsed.ok) throw new Error(`expected ${sql} to parse: ${parsed.message}`);
  return parsed.json;
}

describe("outlinePgStatements", () => {
  // Heavy: every statement of the corpus parsed twice. Took 0.5 s and 0.2 s in two runs of the unit
  // project on 2 shared cores with two busy loops running.
  it("names the same statement kinds as the whole tree, for every statement of the corpus", () => {
    const texts = [
      ...PORTABLE_SQL,
      ...DIALECT_SQL.postgresql,
      "SELECT 1 UNION SELECT 2; (SELECT 1) INTERSECT (SELECT 2 UNION SELECT 3)",
      "WITH a AS (SELECT 1 UNION SELECT 2) SELECT * FROM a",
      "SELECT * FROM (SELECT 1 EXCEPT SELECT 2) s WHERE x IN (SELECT 1 UNION SELECT 2)",
      "GRANT SELECT ON t TO bob; REVOKE SELECT ON t FROM bob",
      "CREATE MATERIALIZED VIEW mv AS SELECT 1; CREATE TABLE t2 AS SELECT 1",
      `SELECT 'a"b\\c}{][', "we""ird}", E'\\\\' FROM "t""q" WHERE s = '"op":"SETOP_UNION"'`,
      "SELECT 1;;SELECT 2;",
    ];
    for (const sql of texts) {
      const json = treeOf(sql);
      const whole = (JSON.parse(json) as { stmts: { stmt: PgNode }[] }).stmts.map((entry) =>
        pgStatementKind(entry.stmt),
      );
      const outlined = outlinePgStatements(json).map((stmt) =>
        stmt === undefined ? "none" : pgStatementKind(stmt),
      );
      expect(outlined, sql).toEqual(whole);
    }
  }, 30_000);

  it("keeps the scalar fields of a statement body and skips its objects and arrays", () => {
    const json =
      '{"version":1,"stmts":[{"stmt":{"SelectStmt":{"targetList":[{"a":"}"}],"op":"SETOP_UNION","all":true,"limitCount":null}},"stmt_len":3},{"stmt_len":0}]}';
    expect(outlinePgStatements(json)).toEqual([
      { SelectStmt: { targetList: {}, op: "SETOP_UNION", all: true, limitCount: null } },
      undefined,
    ]);
    expect(outlinePgStatements('{"version":1,"stmts":[]}')).toEqual([]);
    expect(outlinePgStatements('{"version":1}')).toEqual([]);
  });

  it("reads a tree in another layout whole, with the same statement kinds", () => {
    const json = treeOf("SELECT 1 UNION SELECT 2; GRANT SELECT ON t TO bob");
    const spaced = JSON.stringify(JSON.parse(json), null, 2);
    const kinds = (text: string) =>
      outlinePgStatements(text).map((stmt) =>
        stmt === undefined ? "none" : pgStatementKind(stmt),
      );
    expect(kinds(spaced)).toEqual(kinds(json));
    expect(kinds(spaced)).toEqual(["SetOperation", "Grant"]);
  });

  it("refuses text that is no JSON", () => {
    for (const bad of ['{"stmts":[{"stmt":{"A":{"b":[1,2}}}]}', '{"stmts":[', '{"a":1} x', ""]) {
      expect(() => outlinePgStatements(bad), bad).toThrow(SyntaxError);
    }
  });
});
