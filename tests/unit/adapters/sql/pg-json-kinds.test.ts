import { beforeAll, describe, expect, it } from "vitest";
import { onePgStatementKind } from "../../../../adapters/sql/pg-json-kinds.js";
import { outlinePgStatements } from "../../../../adapters/sql/pg-json-outline.js";
import { PgQueryWasm } from "../../../../adapters/sql/pg-query-wasm.js";
import { pgStatementKind } from "../../../../adapters/sql/pg-statement.js";
import { sqlCorpora } from "../../../fixtures/sql/sql-corpora.js";

let wasm: PgQueryWasm;
beforeAll(async () => {
  wasm = await PgQueryWasm.load();
});

/** The kinds as the outline of the whole text names them. */
function outlined(json: string): (string | undefined)[] {
  return outlinePgStatements(json).map((stmt) =>
    stmt === undefined ? undefined : pgStatementKind(stmt),
  );
}

const SHAPES: readonly string[] = [
  "SELECT 1",
  "SELECT 1;",
  "  SELECT a FROM t  ;  ",
  ";;SELECT 1;;",
  "SELECT 1; SELECT 2",
  "SELECT 1 UNION SELECT 2",
  "SELECT * FROM (SELECT 1 UNION SELECT 2) s",
  "SELECT (SELECT 1 EXCEPT SELECT 2) AS x ORDER BY 1",
  "WITH w AS (SELECT 1 INTERSECT SELECT 2) SELECT * FROM w",
  "VALUES (1), (2)",
  "SELECT 1 INTO t",
  "CREATE TABLE t2 AS SELECT 1",
  "CREATE MATERIALIZED VIEW mv AS SELECT 1",
  "GRANT SELECT ON t TO bob",
  "REVOKE ALL ON t FROM bob",
  "INSERT INTO t SELECT 1 UNION SELECT 2",
  "UPDATE t SET a = 1; ",
  "-- only a comment",
  'SELECT \'op":"SETOP_NONE\' AS "stmt_location"',
];

const CORPORA: Record<string, readonly string[]> = {
  shapes: SHAPES,
  // Invalid text has no tree to read a kind from.
  ...withoutInvalid(sqlCorpora()),
};

function withoutInvalid(corpora: Record<string, readonly string[]>) {
  const { invalid: _invalid, ...rest } = corpora;
  return rest;
}

describe("onePgStatementKind", () => {
  for (const [name, inputs] of Object.entries(CORPORA)) {
    it(`answers only for one statement, and then as the outline does, on the ${name} corpus`, () => {
      let answered = 0;
      for (const sql of inputs) {
        const raw = wasm.parse(sql);
        if (!raw.ok) continue;
        const kind = onePgStatementKind(raw.json);
        if (kind === undefined) continue;
        expect([kind], sql).toEqual(outlined(raw.json));
        answered++;
      }
      expect(answered).toBeGreaterThan(0);
    });
  }

  it("answers for a plain statement and leaves set operations and several statements to the outline", () => {
    const kindOf = (sql: string) => {
      const raw = wasm.parse(sql);
      if (!raw.ok) throw new Error(raw.message);
      return onePgStatementKind(raw.json);
    };
    expect(kindOf("SELECT id FROM users WHERE id = 42")).toBe("Select");
    expect(kindOf("SELECT * FROM (SELECT 1 UNION SELECT 2) s;")).toBe("Select");
    expect(kindOf("DELETE FROM t WHERE a = 1")).toBe("Delete");
    expect(kindOf("SELECT 1 UNION SELECT 2")).toBeUndefined();
    expect(kindOf("SELECT 1; SELECT 2")).toBeUndefined();
    expect(kindOf("CREATE TABLE t2 AS SELECT 1")).toBeUndefined();
    expect(kindOf("-- nothing")).toBeUndefined();
  });
});
