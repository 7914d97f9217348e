/**
 * `lint_sql` with every rule and `fix: true` on shapes from public test corpora (sqlglot's dialect
 * tests, sqlfluff's dialect fixtures) whose fixes used to break valid SQL: the fixed SQL must
 * still validate in its dialect, and nothing is reported where nothing is wrong.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../../adapters/sql/index.js";
import { fixSql, lintSql } from "../../../../core/sql/lint/index.js";
import type { SqlDialect } from "../../../../core/sql/dialects.js";
import { loadedParser } from "../loaded-parser.js";

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

const ALL = ["all"];

/** The fixed SQL with every rule, checked to still validate in `dialect`. */
function fixedValid(sql: string, dialect: SqlDialect): string {
  expect(parser.check(sql, dialect)).toBeUndefined();
  const fixed = fixSql(sql, { rules: ALL, dialect }).fixed_sql;
  expect(parser.check(fixed, dialect)).toBeUndefined();
  return fixed;
}

/** The codes of the given rules reported on `sql`. */
function codes(sql: string, rules: string[], dialect: SqlDialect): string[] {
  return lintSql(sql, { rules, dialect }).violations.map((v) => v.rule);
}

describe("fixes that keep real-world SQL valid", () => {
  it("reads no alias in TIME ZONE or in PostgreSQL's digit separators (1_000)", () => {
    for (const sql of [
      "SELECT '2015-10-24 16:38:46'::TIMESTAMP WITHOUT TIME ZONE",
      "SELECT to_timestamp(123)::time without time zone",
      "SELECT 1_000_000",
    ]) {
      expect(fixedValid(sql, "postgresql")).toBe(sql);
      expect(codes(sql, ["L027"], "postgresql")).toEqual([]);
    }
    // A real alias after a number is still reported and fixed.
    expect(fixSql("SELECT 1 n", { rules: ["L027"] }).fixed_sql).toBe("SELECT 1 AS n");
  });

  it("reads MySQL index hints and SQLite's INDEXED BY as hints, not table aliases", () => {
    for (const sql of [
      "SELECT * FROM onetable FORCE INDEX (idx_index)",
      "SELECT * FROM onetable FORCE KEY (idx_index)",
      "SELECT * FROM t1 USE INDEX FOR JOIN (i1) FORCE INDEX FOR JOIN (i2)",
    ]) {
      expect(fixedValid(sql, "mysql")).toBe(sql);
    }
    expect(fixedValid("SELECT * FROM t INDEXED BY s.i", "sqlite")).toBe(
      "SELECT * FROM t INDEXED BY s.i",
    );
    expect(fixSql("SELECT * FROM t u", { rules: ["L026"] }).fixed_sql).toBe("SELECT * FROM t AS u");
  });

  it("leaves Snowflake's DIRECTED joins and a JOIN option alone, and still types a bare JOIN", () => {
    expect(fixedValid("SELECT * FROM a INNER DIRECTED JOIN b USING (id)", "snowflake")).toBe(
      "SELECT * FROM a INNER DIRECTED JOIN b USING (id)",
    );
    const operator =
      "CREATE OPERATOR === (LEFTARG = box, RIGHTARG = box, PROCEDURE = area_equal, JOIN = area_join)";
    expect(fixedValid(operator, "postgresql")).toBe(operator);
    expect(fixSql("SELECT 1 FROM a JOIN b ON a.id = b.id", { rules: ["L017"] }).fixed_sql).toBe(
      "SELECT 1 FROM a INNER JOIN b ON a.id = b.id",
    );
  });

  it("reads GRANT SELECT as a privilege, not as a query", () => {
    const sql = "GRANT SELECT ON VIEW MYDB.SHARED_SCHEMA.VIEW1 TO SHARE SHARE1";
    expect(fixedValid(sql, "snowflake")).toBe(sql);
    expect(codes(sql, ALL, "snowflake")).toEqual([]);
  });
});
