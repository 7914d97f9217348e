/**
 * Benign shapes from public test corpora (sqlfluff's dialect fixtures, sqlglot's dialect tests)
 * that the scanner flagged HIGH or CRITICAL, each beside the attack of the same shape that it must
 * still flag.
 */
import { describe, expect, it } from "vitest";
import { high } from "./high-findings.js";

describe("scanner on real-world scripts and definitions", () => {
  it("does not report a script's statements on their own lines after a plain SELECT", () => {
    expect(
      high(
        "SELECT account\nFROM foo;\n\nCREATE TABLE IF NOT EXISTS table_name(\n    organization VARCHAR\n);\n",
      ),
    ).toEqual([]);
    expect(high("SELECT '';\n\nSELECT \"\";\n\nUPDATE t1 SET c1 = 2 WHERE c1 = 1;\n")).toEqual([]);
    expect(
      high(
        "select '1'::int::boolean as bool;\n\nupdate table_name\nset col1 = CURRENT_TIMESTAMP;\n",
      ),
    ).toEqual([]);
  });

  it("still reports a stacked statement on the query's line, or after a filter's value", () => {
    expect(high("SELECT * FROM users; UPDATE users SET admin=1")).toEqual([
      "CRITICAL STACKED_QUERY",
    ]);
    expect(high("SELECT * FROM users WHERE id = 1;\nDROP TABLE users")).toEqual([
      "CRITICAL STACKED_QUERY",
    ]);
    expect(high("SELECT name FROM t WHERE name = 'x';\n\nDELETE FROM orders; --'")).toContain(
      "CRITICAL STACKED_QUERY",
    );
  });

  it("does not guess an attack from branch shapes in a view's definition", () => {
    const select =
      "SELECT column1 AS `boo`, column2 AS `foo` FROM my_table WHERE column3 = 'some_value' " +
      "UNION SELECT q.* FROM fruits_table, JSON_TABLE(Fruits, '$[*]' COLUMNS(id VARCHAR(255) PATH '$.id')) AS q";
    expect(high(`CREATE OR REPLACE VIEW my_view AS ${select}`)).toEqual([]);
    expect(high(select)).toEqual(["HIGH UNION_GENERIC"]);
    expect(
      high(
        "CREATE VIEW v AS SELECT a FROM t WHERE id = 1 UNION SELECT table_name FROM information_schema.tables",
      ),
    ).toEqual(["CRITICAL UNION_INJECTION"]);
  });

  it("reads a parenthesised BETWEEN bound as a bound, not as a constant condition", () => {
    expect(
      high(
        "ALTER TABLE my_table RECLUSTER WHERE create_date BETWEEN ('2016-01-01') AND ('2016-01-07')",
      ),
    ).toEqual([]);
    expect(high("SELECT * FROM t WHERE x BETWEEN (1) AND (2) AND (1=1)")).toEqual([
      "HIGH BOOLEAN_BASED",
    ]);
  });

  it("reads a parenthesised constant followed by a name as an operand, not as a condition", () => {
    expect(
      high(
        "SELECT (-1) * col AS col FROM t1 LEFT JOIN t2 USING (id) ORDER BY CASE WHEN (-1) * col IS NULL THEN 1 ELSE 0 END, (-1) * col",
      ),
    ).toEqual([]);
    expect(high("SELECT * FROM t WHERE id = 1 OR (1)=(1)")).toEqual(["CRITICAL TAUTOLOGY"]);
    expect(
      high("SELECT * FROM t WHERE id = 5 AND CASE WHEN (1=1) THEN 1 ELSE 0 END = 1"),
    ).toContain("HIGH BOOLEAN_BASED");
  });
});
