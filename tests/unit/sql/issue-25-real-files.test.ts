/**
 * Issue 25: the defects real repositories found (ory/kratos migrations, a Snowflake data
 * warehouse, dbt projects), each in the shape it was found in, and the promise that
 * `validate_sql` and `parse_sql` agree on every input of the repository's SQL corpora.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SQL_DIALECTS } from "../../../core/sql/dialects.js";
import type { SqlToolkit } from "../../../core/sql/results.js";
import { createSqlToolkit } from "../../../core/sql/sql-toolkit.js";
import { sqlCorpora } from "../../fixtures/sql/sql-corpora.js";
import { loadedParser } from "./loaded-parser.js";

let tools: SqlToolkit;
beforeAll(async () => {
  tools = createSqlToolkit(await loadedParser());
});

describe("the real-file defects of issue 25", () => {
  it("accepts a backslash-escaped quote followed by (or in mysql, snowflake and generic", () => {
    // Found in a Snowflake file: the routing parser's checks read `\'` as the end of the string.
    const sql = "SELECT 'it\\'s (or not)', 'a\\'b (and c)' AS note FROM t WHERE x = 'y\\' (or z)'";
    for (const dialect of ["mysql", "snowflake", undefined] as const) {
      expect(tools.validate(sql, dialect).result, String(dialect)).toMatchObject({ valid: true });
    }
    expect(tools.parse(sql)).toMatchObject({ ok: true, result: { statement_count: 1 } });
    // PostgreSQL reads no backslash escape in '…': there it is still an error.
    expect(tools.validate(sql, "postgresql").result.valid).toBe(false);
  });

  it("reports WHERE TRUE (the safe-update idiom) at LOW, not as a CRITICAL tautology", () => {
    for (const sql of [
      "UPDATE identities SET nid = (SELECT id FROM networks LIMIT 1) WHERE TRUE",
      "DELETE FROM sessions WHERE true;",
      "UPDATE t SET a = 1 WHERE TRUE ORDER BY id LIMIT 10",
    ]) {
      const scan = tools.scan(sql).result;
      expect(scan, sql).toMatchObject({ has_critical: false, has_high: false, low_count: 1 });
      expect(scan.findings[0], sql).toMatchObject({ severity: "LOW", pattern: "TAUTOLOGY" });
    }
    // An always-true condition an attacker reaches with OR stays critical.
    expect(tools.scan("SELECT * FROM users WHERE id = 1 OR TRUE").result.has_critical).toBe(true);
    expect(tools.scan("SELECT * FROM users WHERE 1=1").result.has_critical).toBe(true);
  });

  it("treats comment-only text the same in every dialect and in parse_sql: no statements", () => {
    const sql = "-- 0042_noop.sql: kept for the migration numbering\n/* nothing to do */\n";
    for (const dialect of SQL_DIALECTS) {
      expect(tools.validate(sql, dialect).result, dialect).toEqual({ valid: true, dialect });
    }
    expect(tools.parse(sql)).toEqual({
      ok: true,
      result: { statement_count: 0, statement_types: [] },
    });
    expect(tools.metadata(sql)).toEqual({
      ok: true,
      result: { tables: [], columns: [], functions: [] },
    });
    expect(tools.analyze(sql).result.errors).toBeUndefined();
  });

  it("judges ((1)) and ((a, b) AS c) alike in validate_sql and parse_sql", () => {
    for (const sql of ["((1))", "((a, b) AS c)", "(1)"]) {
      const validated = tools.validate(sql).result;
      const parsed = tools.parse(sql);
      expect(validated.valid, sql).toBe(false);
      expect(parsed.ok, sql).toBe(false);
      if (!parsed.ok) {
        expect(validated.error?.replace(/^invalid SQL: /, ""), sql).toBe(
          parsed.error.replace(/^parse failed: /, ""),
        );
      }
    }
    // A query in parentheses is a statement for both.
    expect(tools.validate("(SELECT 1) UNION (SELECT 2)").result.valid).toBe(true);
    expect(tools.parse("(SELECT 1) UNION (SELECT 2)").ok).toBe(true);
  });

  it("keeps f(x).1 touching when formatting, so the result still validates", () => {
    const sql = "SELECT f(x).1, (a).2, t.1 FROM t WHERE b = .5";
    const formatted = tools.format(sql);
    expect(formatted).toMatchObject({
      ok: true,
      result: { formatted_sql: "SELECT f(x).1, (a).2, t.1\nFROM t\nWHERE b = .5" },
    });
    if (formatted.ok) {
      expect(tools.format(formatted.result.formatted_sql)).toEqual(formatted);
    }
  });
});

describe("validate_sql and parse_sql agree on every input of the SQL corpora (issue 25)", () => {
  const corpora = sqlCorpora();
  for (const [name, inputs] of Object.entries(corpora)) {
    it(`agrees on the ${name} corpus`, { timeout: 60_000 }, () => {
      const disagreements: string[] = [];
      for (const sql of inputs) {
        if (!/\S/.test(sql)) continue;
        const valid = tools.validate(sql).result.valid;
        const parsed = tools.parse(sql).ok;
        const metadata = tools.metadata(sql).ok;
        if (valid !== parsed || parsed !== metadata) {
          disagreements.push(`${JSON.stringify(sql.slice(0, 60))}: ${valid}/${parsed}/${metadata}`);
        }
      }
      expect(inputs.length).toBeGreaterThan(0);
      expect(disagreements).toEqual([]);
    });
  }
});
