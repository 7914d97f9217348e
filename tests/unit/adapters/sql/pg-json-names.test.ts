import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { LibpgQuerySqlParser } from "../../../../adapters/sql/index.js";
import { readPgStatements } from "../../../../adapters/sql/pg-json-names.js";
import { PgQueryWasm } from "../../../../adapters/sql/pg-query-wasm.js";
import { SourceText } from "../../../../adapters/sql/source-text.js";
import type { ParsedStatement } from "../../../../core/ports/sql-parser.js";
import { PORTABLE_SQL } from "../../../fixtures/sql/corpus.js";
import { loadBenign } from "../../../fixtures/security/corpus.js";
import { sqlCorpora } from "../../../fixtures/sql/sql-corpora.js";

const parser = new LibpgQuerySqlParser();
let wasm: PgQueryWasm;
beforeAll(async () => {
  await parser.load();
  wasm = await PgQueryWasm.load();
});

/** Shapes the name walk treats specially: scopes, SET targets, keyword calls, positions. */
const SHAPES: readonly string[] = [
  "UPDATE users u SET name = o.name, total = total + 1 FROM orders o WHERE o.uid = u.id",
  "DELETE FROM users u USING orders o WHERE o.uid = u.id RETURNING u.id",
  "INSERT INTO t (a, b) SELECT x, y FROM s ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b",
  "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)",
  "SELECT NULLIF(a, b), COALESCE(c, d), GREATEST(e, f), LEAST(g, 1) FROM t",
  "SELECT TRIM(name), EXTRACT(YEAR FROM d), ts AT TIME ZONE 'UTC', timezone('UTC', ts) FROM t",
  "WITH recent AS (SELECT * FROM orders) SELECT r.id, recent.total FROM recent r, recent",
  "SELECT s.id, s.n FROM (SELECT id, name AS n FROM users) s JOIN LATERAL unnest(s.tags) g(tag) ON true",
  'SELECT "Ünïcode"."Näme", café.prix FROM "Ünïcode", café WHERE café.prix > 1',
  "SELECT 'it''s', E'a\\'b', $$x$$, '\\u0041' AS \"we\"\"ird\" FROM t",
  "SELECT a FROM t1 UNION ALL (SELECT b FROM t2 INTERSECT SELECT c FROM t3) EXCEPT SELECT d FROM t4",
  'SELECT @n, rownum, "rownum" FROM t',
  "SELECT x FROM a JOIN b USING (id) JOIN (c CROSS JOIN d) ON true NATURAL JOIN e",
  "CREATE TABLE t2 AS SELECT id FROM t1; CREATE MATERIALIZED VIEW mv AS SELECT count(*) FROM t1",
  "CREATE VIEW v AS SELECT x.y FROM s.x; ALTER TABLE t ADD COLUMN c int DEFAULT nextval('s')",
  "SELECT CAST(a AS numeric(10, 2)), b::text[], c IS NULL, d IN (1, 2), -e FROM t ORDER BY 1 DESC LIMIT 5 OFFSET 2",
  "SELECT count(*) FILTER (WHERE a > 1), sum(b) OVER (PARTITION BY c ORDER BY d), array_agg(e ORDER BY f) FROM t",
  "GRANT SELECT ON t TO bob; REVOKE ALL ON t FROM bob; COPY t (a, b) FROM STDIN; TRUNCATE t, u",
  ";; SELECT 1;; -- trailing comment",
  `SELECT ${"(".repeat(120)}a${")".repeat(120)} FROM t`,
  `SELECT * FROM t0 ${Array.from({ length: 300 }, (_, i) => `JOIN t${i + 1} ON t${i + 1}.id = t${i}.id`).join(" ")}`,
];

function benchQueries(): string[] {
  const file = readFileSync(
    new URL("../../../fixtures/reference/sql-bench-queries.sql", import.meta.url),
    "utf8",
  );
  return file.split(/^-- (?:small|medium|large)\n/m).slice(1);
}

const CORPORA: Record<string, readonly string[]> = {
  shapes: SHAPES,
  bench: benchQueries(),
  ...sqlCorpora(),
};

function plain(statements: readonly ParsedStatement[]): ParsedStatement[] {
  return statements.map(({ kind, tables, columns, functions }) => ({
    kind,
    tables: [...tables],
    columns: [...columns],
    functions: [...functions],
  }));
}

describe("readPgStatements", () => {
  for (const [name, inputs] of Object.entries(CORPORA)) {
    it(`gives the same kinds and names as JSON.parse and the walk on the ${name} corpus`, () => {
      let settled = 0;
      for (const sql of inputs) {
        const raw = wasm.parse(sql);
        // Without the names hint the statements read their names from JSON.parse and the walk.
        const walked = parser.parse(sql, "postgresql");
        const read = parser.parse(sql, "postgresql", { names: true });
        if (!raw.ok || !walked.ok) {
          expect(read.ok, sql).toBe(false);
          settled++;
          continue;
        }
        expect(read.ok, sql).toBe(true);
        if (!read.ok) continue;
        expect(plain(read.statements), sql).toEqual(plain(walked.statements));
        settled++;
      }
      expect(settled).toBe(inputs.length);
    });
  }

  it("reads every statement of the corpora itself, without falling back", () => {
    const fellBack: string[] = [];
    for (const sql of [
      ...SHAPES,
      ...benchQueries(),
      ...PORTABLE_SQL,
      ...loadBenign().map((e) => e.sql),
    ]) {
      const raw = wasm.parse(sql);
      if (raw.ok && readPgStatements(raw.json, new SourceText(sql)) === undefined) {
        fellBack.push(sql.slice(0, 80));
      }
    }
    // Only the chain of 300 JOINs nests deeper than the reader goes.
    expect(fellBack).toEqual([SHAPES[SHAPES.length - 1]?.slice(0, 80)]);
  });

  it("answers undefined for a layout it does not know, so the caller reads the tree whole", () => {
    const source = new SourceText("SELECT a");
    const odd =
      '{"version":1,"stmts":[{"stmt":{"SelectStmt":{"targetList":[{"ColumnRef":{"x":[1]}}]}}}]}';
    expect(readPgStatements(odd, source)).toBeUndefined();
    expect(readPgStatements('{"version":1,"stmts":[]}', source)).toEqual([]);
  });

  it("names statement kinds as the outline does", () => {
    const sql =
      "SELECT 1 UNION SELECT 2; CREATE MATERIALIZED VIEW mv AS SELECT 1; REVOKE ALL ON t FROM bob";
    const raw = wasm.parse(sql);
    if (!raw.ok) throw new Error(raw.message);
    expect(readPgStatements(raw.json, new SourceText(sql))?.map((s) => s?.kind)).toEqual([
      "SetOperation",
      "CreateMaterializedView",
      "Revoke",
    ]);
  });
});
