import { describe, expect, it } from "vitest";
import { scanSql } from "../../../../core/sql/security/index.js";
import { loadAttacks, loadBenign } from "../../../fixtures/security/corpus.js";

/**
 * Quality floor on the labelled corpora in tests/fixtures/security (figures per family:
 * `npx tsx bench/security-corpus.ts`). Flagged means at least one HIGH or CRITICAL finding.
 */
// prettier-ignore
const REQUIRED_FAMILIES = [
  "tautology", "union", "stacked", "comment-truncation", "time-blind", "boolean-blind",
  "out-of-band", "inline-comment", "case-mixing", "hex", "char", "concatenation", "error-based",
];

describe("scanSql on the labelled corpora", () => {
  const attacks = loadAttacks();
  const benign = loadBenign();

  it("has at least 300 attacks and 300 benign queries across the required families", () => {
    expect(attacks.length).toBeGreaterThanOrEqual(300);
    expect(benign.length).toBeGreaterThanOrEqual(300);
    const families = new Set(attacks.map((a) => a.family));
    for (const family of REQUIRED_FAMILIES) expect(families.has(family), family).toBe(true);
  });

  it("flags at least 97% of the attacks HIGH or CRITICAL (issue 8)", () => {
    const missed = attacks.filter((a) => !scanSql(a.sql).has_high);
    const rate = 1 - missed.length / attacks.length;
    expect(
      rate,
      missed.map((m) => `attacks.txt:${m.line} ${m.sql}`).join("\n"),
    ).toBeGreaterThanOrEqual(0.97);
  });

  it("flags at most 1% of the benign queries HIGH or CRITICAL (issue 8)", () => {
    const flagged = benign.filter((b) => scanSql(b.sql).has_high);
    const rate = flagged.length / benign.length;
    expect(
      rate,
      flagged.map((f) => `benign.sql:${f.line} ${f.sql}`).join("\n"),
    ).toBeLessThanOrEqual(0.01);
  });

  it("gives every attack family with at least five queries a detection rate of at least 80%", () => {
    const byFamily = new Map<string, { total: number; flagged: number }>();
    for (const a of attacks) {
      const row = byFamily.get(a.family) ?? { total: 0, flagged: 0 };
      row.total++;
      if (scanSql(a.sql).has_high) row.flagged++;
      byFamily.set(a.family, row);
    }
    for (const [family, row] of byFamily) {
      if (row.total >= 5) expect(row.flagged / row.total, family).toBeGreaterThanOrEqual(0.8);
    }
  });
});
