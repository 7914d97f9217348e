import { describe, expect, it } from "vitest";
import { scanSql } from "../../../../core/sql/security/index.js";
import { expectReferenceCase, loadReferenceCases } from "../lint/reference-cases.js";

/**
 * Cases of the Go original excluded because a decision (../shared/spec/sql-tool-server.decisions.md)
 * overrides the reference behaviour. Keyed by the case's index in the shared cases file.
 */
const EXCLUDED: ReadonlyMap<number, string> = new Map([
  [52, "empty sql is rejected by the MCP shell's parameter validation, not by scanSql"],
  [
    74,
    "a UNION of two same-shaped SELECTs is legitimate: decisions say UNION alone is not flagged",
  ],
  [
    90,
    "a keyword inside a string literal is not an attack (the reference flags information_schema in a LIKE pattern)",
  ],
]);

/**
 * Cases kept with a narrower expectation, because the reference also reports a finding the
 * decisions forbid. Each replacement still asserts what the case is about.
 */
const ADAPTED: ReadonlyMap<number, { why: string; expect: Record<string, unknown> }> = new Map([
  [
    73,
    {
      why: "one UNION gives one finding; the reference adds UNION_GENERIC and a bare information_schema match",
      expect: {
        result_subset: { has_critical: true },
        findings_contain: [
          {
            pattern: "UNION_INJECTION",
            severity: "CRITICAL",
            description: "Pattern detected: UNION SELECT table_name FROM information_schema",
          },
        ],
      },
    },
  ],
]);

describe("scanSql against the Go original's verified security_scan answers", () => {
  const cases = loadReferenceCases("security_scan");

  it("has the 49 reference cases and excludes only documented ones", () => {
    expect(cases).toHaveLength(49);
    for (const index of [...EXCLUDED.keys(), ...ADAPTED.keys()]) {
      expect(cases.some((c) => c.index === index)).toBe(true);
    }
  });

  for (const c of cases.filter((x) => !EXCLUDED.has(x.index))) {
    it(`case ${c.index} agrees: ${JSON.stringify(c.args.sql).slice(0, 70)}`, () => {
      const result = scanSql(c.args.sql) as unknown as Record<string, unknown>;
      expectReferenceCase(result, ADAPTED.get(c.index)?.expect ?? c.expect);
    });
  }

  it("still reports the excluded reference queries sensibly (clean or below HIGH)", () => {
    expect(scanSql("SELECT * FROM active_users UNION SELECT * FROM archived_users").has_high).toBe(
      false,
    );
    expect(scanSql("SELECT name FROM users WHERE name LIKE '%information_schema%'").is_clean).toBe(
      true,
    );
  });
});
