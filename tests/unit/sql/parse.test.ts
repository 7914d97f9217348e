import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import { parseSql, statementTypeName } from "../../../core/sql/parse.js";
import { loadedParser } from "./loaded-parser.js";

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

function types(sql: string): string[] {
  const outcome = parseSql(parser, sql);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result.statement_types;
}

describe("parseSql", () => {
  it.each([
    ["SELECT id FROM users", "*ast.SelectStatement"],
    ["WITH c AS (SELECT 1) SELECT * FROM c", "*ast.SelectStatement"],
    ["SELECT 1 UNION SELECT 2", "*ast.SetOperation"],
    ["INSERT INTO t VALUES (1)", "*ast.InsertStatement"],
    ["UPDATE t SET a = 1", "*ast.UpdateStatement"],
    ["DELETE FROM t", "*ast.DeleteStatement"],
    ["CREATE TABLE t (id int)", "*ast.CreateTableStatement"],
    ["CREATE INDEX i ON t (a)", "*ast.CreateIndexStatement"],
    ["CREATE VIEW v AS SELECT 1", "*ast.CreateViewStatement"],
    ["CREATE MATERIALIZED VIEW mv AS SELECT 1", "*ast.CreateMaterializedViewStatement"],
    ["DROP TABLE t", "*ast.DropStatement"],
    ["ALTER TABLE t ADD COLUMN b int", "*ast.AlterStatement"],
    ["TRUNCATE TABLE t", "*ast.TruncateStatement"],
    ["MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE", "*ast.MergeStatement"],
    ["SHOW TABLES", "*ast.ShowStatement"],
    ["EXPLAIN SELECT 1", "*ast.DescribeStatement"],
    ["DESCRIBE users", "*ast.DescribeStatement"],
    ["REPLACE INTO t (a) VALUES (1)", "*ast.ReplaceStatement"],
    ["PRAGMA table_info(users)", "*ast.PragmaStatement"],
    ["REFRESH MATERIALIZED VIEW mv", "*ast.RefreshMaterializedViewStatement"],
  ])("names %s %s", (sql, type) => {
    expect(types(sql)).toEqual([type]);
  });

  it("counts statements and skips empty ones", () => {
    expect(parseSql(parser, "SELECT 1;;SELECT 2; INSERT INTO t VALUES (1);")).toEqual({
      ok: true,
      result: {
        statement_count: 3,
        statement_types: ["*ast.SelectStatement", "*ast.SelectStatement", "*ast.InsertStatement"],
      },
    });
  });

  it("fails with parse failed, line and column", () => {
    expect(parseSql(parser, "SELECT id FROM users WHERE")).toEqual({
      ok: false,
      error: "parse failed: line 1, column 27: unexpected end of input",
    });
    const garbage = parseSql(parser, ")))((( @@@ !!!");
    expect(garbage.ok).toBe(false);
    if (!garbage.ok) expect(garbage.error).toMatch(/^parse failed: line 1, column \d+: /);
  });

  it("names any other kind in the same form", () => {
    expect(statementTypeName("Transaction")).toBe("*ast.TransactionStatement");
    expect(types("BEGIN")).toEqual(["*ast.TransactionStatement"]);
  });
});
