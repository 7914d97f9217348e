import { describe, expect, it } from "vitest";
import { scanSql } from "../../../../core/sql/security/index.js";

/** `SEVERITY PATTERN` of every HIGH or CRITICAL finding. */
function high(sql: string): string[] {
  return scanSql(sql)
    .findings.filter((f) => f.severity === "HIGH" || f.severity === "CRITICAL")
    .map((f) => `${f.severity} ${f.pattern}`);
}

describe("scanner regressions of issue 8", () => {
  it("does not read the items of an IN list before OR as a tautology (issue 8)", () => {
    expect(
      scanSql("SELECT * FROM tickets WHERE status IN ('a','b') OR priority > 3").findings,
    ).toEqual([]);
    expect(scanSql("SELECT * FROM t WHERE id IN (1) OR code IN (1, 2)").findings).toEqual([]);
    expect(high("SELECT * FROM t WHERE id = 1 OR (1=1)")).toContain("CRITICAL TAUTOLOGY");
    expect(high("SELECT * FROM t WHERE id = 1 OR NOT (1=2)")).toContain("CRITICAL TAUTOLOGY");
  });
});

describe("comment truncation (issue 8)", () => {
  it("reports a comment that cuts the query off right after a value as HIGH", () => {
    for (const sql of [
      "SELECT * FROM users WHERE username = 'admin'--",
      "SELECT * FROM users WHERE username = 'admin'#",
      "SELECT * FROM users WHERE username = 'admin' -- ",
      "SELECT * FROM users WHERE username = 'admin'-- -",
    ]) {
      expect(high(sql), sql).toContain("HIGH COMMENT_BYPASS");
    }
  });

  it("reports a comment that goes on with the condition it cut off as HIGH", () => {
    for (const sql of [
      "SELECT * FROM documents WHERE id = 5-- AND owner_id = 9",
      "SELECT * FROM orders WHERE id = 77 # AND user_id = 12",
      "SELECT * FROM users WHERE email = 'a@b.c'/* AND password = 'x' */",
      "DELETE FROM posts WHERE id = 9-- AND author_id = 2",
    ]) {
      expect(high(sql), sql).toContain("HIGH COMMENT_BYPASS");
    }
  });

  it("does not report balanced comments that are notes, nor commented-out lines", () => {
    for (const sql of [
      "SELECT a /* x */, b FROM t",
      "SELECT a, b FROM t /* report v2 */",
      "SELECT id FROM orders WHERE id = 5 /* looked up by id */",
      "SELECT * FROM orders WHERE id = 5 -- by id",
      "SELECT *\nFROM orders\nWHERE customer_id = 7\n-- AND status = 'open'\nORDER BY id",
      "SELECT id FROM t WHERE a = 1 /* AND b = 2 */ AND c = 3",
    ]) {
      expect(scanSql(sql).findings, sql).toEqual([]);
    }
  });
});
