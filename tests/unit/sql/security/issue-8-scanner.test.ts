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
