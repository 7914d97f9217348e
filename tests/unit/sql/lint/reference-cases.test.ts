import { describe, expect, it } from "vitest";
import { LINT_RULES, lintSql } from "../../../../core/sql/lint/index.js";
import { expectReferenceCase, loadReferenceCases } from "./reference-cases.js";

/**
 * Cases of the Go original excluded because a decision (../shared/spec/sql-tool-server.decisions.md)
 * overrides the reference behaviour. Keyed by the case's index in the shared cases file.
 */
const EXCLUDED: ReadonlyMap<number, string> = new Map([
  [101, "empty sql is rejected by the MCP shell's parameter validation, not by lintSql"],
  [118, "line length is counted in characters (code points), not UTF-8 bytes"],
  [
    158,
    "keywords inside comments are not keywords: decisions say no keyword-case hits inside comments",
  ],
]);

/** Reference rule names (with spaces) and the CamelCase names the decisions require. */
const NAME_BY_REFERENCE: Readonly<Record<string, string>> = {
  "Trailing Whitespace": "TrailingWhitespace",
  "Mixed Indentation": "MixedIndentation",
  "Consecutive Blank Lines": "ConsecutiveBlankLines",
  "Indentation Depth": "IndentationDepth",
  "Long Lines": "LongLines",
  "Column Alignment": "ColumnAlignment",
  "Keyword Case Consistency": "KeywordCase",
  "Comma Placement": "CommaPlacement",
  "Aliasing Consistency": "AliasingConsistency",
  "Redundant Whitespace": "RedundantWhitespace",
};

function withDecidedNames(expectation: Record<string, unknown>): Record<string, unknown> {
  const contain = expectation["violations_contain"] as Record<string, unknown>[] | undefined;
  if (contain === undefined) return expectation;
  return {
    ...expectation,
    violations_contain: contain.map((v) =>
      typeof v["rule_name"] === "string"
        ? { ...v, rule_name: NAME_BY_REFERENCE[v["rule_name"]] }
        : v,
    ),
  };
}

describe("lintSql against the Go original's verified lint_sql answers", () => {
  const cases = loadReferenceCases("lint_sql");

  it("has the 61 reference cases and excludes only documented ones", () => {
    expect(cases).toHaveLength(61);
    for (const index of EXCLUDED.keys()) expect(cases.some((c) => c.index === index)).toBe(true);
  });

  it("maps every reference rule name onto a registered CamelCase name", () => {
    const names = new Set(LINT_RULES.map((r) => r.name));
    for (const name of Object.values(NAME_BY_REFERENCE)) expect(names.has(name)).toBe(true);
  });

  for (const c of cases.filter((x) => !EXCLUDED.has(x.index))) {
    it(`case ${c.index} agrees: ${JSON.stringify(c.args.sql).slice(0, 70)}`, () => {
      const result = lintSql(c.args.sql) as unknown as Record<string, unknown>;
      // rule_order: the decisions sort by line, column, rule instead of the reference's rule order.
      expectReferenceCase(result, withDecidedNames(c.expect), ["rule_order"]);
    });
  }
});
