import { describe, expect, it } from "vitest";
import {
  compactViolation,
  DEFAULT_LINT_RULE_CODES,
  findLintRules,
  fixSql,
  formatLintCompact,
  lintSql,
  sameMeaning,
  selectLintRules,
} from "../../../../core/sql/lint/index.js";
import type { LintOptions } from "../../../../core/sql/lint/index.js";
import { tokenize } from "../../../../core/sql/tokenizer.js";

/** The codes one rule reports on `sql`. */
function hits(code: string, sql: string, options: LintOptions = {}): string[] {
  return lintSql(sql, { ...options, rules: [code] }).violations.map((v) => `${v.line}:${v.column}`);
}

describe("rule selection with SQLFluff codes, categories and all (issue 25)", () => {
  it("runs only the seed's ten rules when no rules are named", () => {
    expect(selectLintRules({}).map((r) => r.code)).toEqual(DEFAULT_LINT_RULE_CODES);
    expect(lintSql("DELETE FROM users").violations).toEqual([]);
  });

  it("resolves a SQLFluff code to every rule carrying it, and categories and all to groups", () => {
    expect(findLintRules("LT01").map((r) => r.code)).toEqual(["L001", "L010"]);
    expect(findLintRules("cp01").map((r) => r.code)).toEqual(["L007"]);
    expect(findLintRules("ambiguous.column_count").map((r) => r.code)).toEqual(["L022"]);
    expect(findLintRules("safety").map((r) => r.code)).toEqual(["L011", "L012", "L013", "L014"]);
    expect(selectLintRules({ rules: ["all"] }).length).toBeGreaterThanOrEqual(30);
    expect(findLintRules("nope")).toEqual([]);
  });

  it("silences a rule by its SQLFluff code in noqa and in exclude_rules", () => {
    expect(lintSql("SELECT * FROM t -- noqa: AM04", { rules: ["all"] }).violations).toEqual([]);
    const options = { rules: ["all"], exclude_rules: ["CP01"] };
    expect(lintSql("select id from t", options).violations.map((v) => v.rule)).not.toContain(
      "L007",
    );
  });
});

describe("safety rules", () => {
  it("report DELETE and UPDATE without WHERE at their statement's own level only", () => {
    expect(hits("L011", "DELETE FROM a WHERE id IN (SELECT id FROM b)")).toEqual([]);
    expect(hits("L011", "DELETE FROM a; DELETE FROM b WHERE x = 1")).toEqual(["1:1"]);
    expect(hits("L011", "WITH old AS (SELECT id FROM a WHERE x) DELETE FROM a")).toEqual(["1:40"]);
    expect(hits("L011", "DELETE FROM a USING b WHERE a.id = b.id")).toEqual([]);
    expect(hits("L012", "UPDATE a SET x = (SELECT y FROM b WHERE b.id = 1)")).toEqual(["1:1"]);
    expect(
      hits("L012", "INSERT INTO a (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET id = 2"),
    ).toEqual([]);
    expect(hits("L012", "INSERT INTO a VALUES (1) ON DUPLICATE KEY UPDATE b = 2")).toEqual([]);
    expect(hits("L012", "SELECT id FROM a FOR UPDATE")).toEqual([]);
  });

  it("report DROP statements and DROP COLUMN, but not DROP CONSTRAINT", () => {
    expect(hits("L013", "DROP VIEW IF EXISTS v")).toEqual(["1:1"]);
    expect(hits("L013", "ALTER TABLE t DROP COLUMN c")).toEqual(["1:15"]);
    expect(hits("L013", "ALTER TABLE t DROP CONSTRAINT c_fk")).toEqual([]);
    expect(hits("L014", "TRUNCATE events")).toEqual(["1:1"]);
  });
});

describe("reference, ambiguity and aliasing rules", () => {
  it("knows correlated names, CTEs, schema-qualified tables and upsert row names", () => {
    const sql =
      "SELECT u.id FROM app.users AS u WHERE EXISTS (SELECT 1 FROM orders AS o WHERE o.user_id = u.id)";
    expect(hits("L020", sql)).toEqual([]);
    expect(hits("L020", "SELECT users.id FROM app.users")).toEqual([]);
    expect(hits("L020", "WITH c AS (SELECT 1 AS x) SELECT c.x FROM c")).toEqual([]);
    expect(hits("L020", "SELECT x.id FROM users AS u")).toEqual(["1:8"]);
    const upsert =
      "INSERT INTO t (a) SELECT s.a FROM s ON CONFLICT (a) DO UPDATE SET a = EXCLUDED.a";
    expect(hits("L020", upsert)).toEqual([]);
  });

  it("reports unqualified columns only where a SELECT reads two tables", () => {
    const join = "SELECT id, o.total AS t FROM users AS u INNER JOIN orders AS o ON o.uid = u.id";
    expect(hits("L019", join)).toEqual(["1:8"]);
    expect(hits("L019", "SELECT id FROM users WHERE EXISTS (SELECT 1 FROM a, b)")).toEqual([]);
    // Select aliases reused later, and date parts, are not columns.
    const ok =
      "SELECT o.a AS total FROM a AS o, b AS p WHERE EXTRACT(year FROM o.d) > 1 ORDER BY total";
    expect(hits("L019", ok)).toEqual([]);
  });

  it("finds CTEs used only by later CTEs, and unused aliases of named tables only", () => {
    expect(
      hits("L021", "WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT x FROM b"),
    ).toEqual([]);
    expect(hits("L021", "WITH a AS (SELECT 1 AS x), b AS (SELECT 2 AS x) SELECT x FROM a")).toEqual(
      ["1:28"],
    );
    expect(hits("L028", "SELECT x FROM (SELECT 1 AS x) AS sub")).toEqual([]);
    expect(hits("L028", "UPDATE u SET name = 'x' FROM users AS u WHERE id = 1")).toEqual([]);
    expect(hits("L030", "SELECT 1 FROM t INNER JOIN t ON TRUE")).toEqual(["1:28"]);
  });

  it("leaves AS off Oracle table aliases, which Oracle rejects", () => {
    expect(hits("L026", "SELECT u.id FROM users u")).toEqual(["1:24"]);
    expect(hits("L026", "SELECT u.id FROM users u", { dialect: "oracle" })).toEqual([]);
  });
});

describe("anti-pattern and consistency rules", () => {
  it("skip the star of EXISTS and COUNT(*), and assignments of NULL", () => {
    expect(hits("L022", "SELECT COUNT(*) AS n FROM t WHERE EXISTS (SELECT * FROM u)")).toEqual([]);
    expect(hits("L022", "SELECT t.* FROM t")).toEqual(["1:10"]);
    expect(hits("L025", "UPDATE t SET a = NULL, b = NULL WHERE c = NULL")).toEqual(["1:41"]);
    expect(hits("L025", "SELECT 1 WHERE a <> NULL")).toEqual(["1:18"]);
    expect(hits("L023", "SELECT 1 WHERE a NOT IN (1, 2)")).toEqual([]);
    expect(hits("L024", "SELECT 1 WHERE a NOT LIKE '_x'")).toEqual(["1:27"]);
  });

  it("does not take table names before a column list, or type names, for function calls", () => {
    const sql =
      "INSERT INTO t (a) SELECT MAX(a) FROM s; CREATE TABLE u (v varchar(3)); SELECT lower(x) FROM t";
    expect(hits("L034", sql)).toEqual(["1:79"]);
  });

  it("fixes in the case of the surrounding keywords, so no keyword-case fix follows", () => {
    expect(
      fixSql("select a b from t join u on true order by a, b desc", {
        rules: ["all"],
        exclude_rules: ["L007"],
      }).fixed_sql,
    ).toBe("select a as b from t inner join u on true order by a asc, b desc");
  });

  it("removes ELSE NULL with its layout but keeps comments", () => {
    expect(
      fixSql("SELECT CASE WHEN a THEN 1\n  ELSE NULL\nEND AS x", { rules: ["L037"] }).fixed_sql,
    ).toBe("SELECT CASE WHEN a THEN 1\nEND AS x");
    const commented = "SELECT CASE WHEN a THEN 1 /* why */ ELSE NULL END AS x";
    expect(fixSql(commented, { rules: ["L037"] }).fixed_sql).toBe(
      "SELECT CASE WHEN a THEN 1 /* why */ END AS x",
    );
  });
});

describe("sameMeaning accepts exactly the rewrites the fixes make", () => {
  it("accepts optional words, operator and function spellings, and removed empty parts", () => {
    const pairs: [string, string][] = [
      [
        "SELECT a b FROM t JOIN u ON TRUE ORDER BY a",
        "SELECT a AS b FROM t INNER JOIN u ON TRUE ORDER BY a ASC",
      ],
      [
        "SELECT COUNT(1), IFNULL(a, 0) FROM t WHERE a != 1",
        "SELECT COUNT(*), COALESCE(a, 0) FROM t WHERE a <> 1",
      ],
      [
        "SELECT t.a AS a, CASE WHEN b THEN 1 ELSE NULL END, FROM t;;",
        "SELECT t.a, CASE WHEN b THEN 1 END FROM t;",
      ],
    ];
    for (const [a, b] of pairs) expect(sameMeaning(tokenize(a), tokenize(b)), b).toBe(true);
  });

  it("still rejects a changed alias, operator or argument", () => {
    const base = tokenize("SELECT a AS b, COUNT(2) FROM t WHERE x <> 1");
    for (const other of [
      "SELECT a AS c, COUNT(2) FROM t WHERE x <> 1",
      "SELECT a AS b, COUNT(*) FROM t WHERE x <> 1",
      "SELECT a AS b, COUNT(2) FROM t WHERE x = 1",
    ])
      expect(sameMeaning(base, tokenize(other)), other).toBe(false);
  });
});

describe("compact output", () => {
  it("prints one line per violation with the message only, and LongLines' figures", () => {
    const result = lintSql(`select ${"x, ".repeat(40)}y`);
    const lines = formatLintCompact(result.violations, "q.sql").split("\n");
    expect(lines[0]).toBe("q.sql:1:1 L007 Keyword 'select' should be uppercase: 'SELECT'");
    expect(lines).toContain("q.sql:1:101 L005 Line is 128 characters (max 100)");
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(result.violation_count + 1);
    const first = result.violations[0];
    expect(first === undefined ? "" : compactViolation(first)).toBe(
      "1:1 L007 Keyword 'select' should be uppercase: 'SELECT'",
    );
  });
});
