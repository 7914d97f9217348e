import { describe, expect, it } from "vitest";
import { LINT_RULES, lintSql } from "../../../../core/sql/lint/index.js";

describe("lint rule registry", () => {
  it("holds the ten rules L001 to L010 in code order with the spec's names", () => {
    expect(LINT_RULES.map((r) => `${r.code} ${r.name}`)).toEqual([
      "L001 TrailingWhitespace",
      "L002 MixedIndentation",
      "L003 ConsecutiveBlankLines",
      "L004 IndentationDepth",
      "L005 LongLines",
      "L006 ColumnAlignment",
      "L007 KeywordCase",
      "L008 CommaPlacement",
      "L009 AliasingConsistency",
      "L010 RedundantWhitespace",
    ]);
  });

  for (const rule of LINT_RULES) {
    describe(`${rule.code} ${rule.name}`, () => {
      it("is triggered by its bad example", () => {
        const hits = lintSql(rule.bad).violations.filter((v) => v.rule === rule.code);
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) {
          expect(hit).toMatchObject({ rule_name: rule.name, severity: rule.severity });
        }
      });

      it("accepts its good example without any violation of any rule", () => {
        expect(lintSql(rule.good).violations).toEqual([]);
      });

      it("documents itself in one paragraph", () => {
        expect(rule.description.length).toBeGreaterThan(80);
        expect(rule.description).not.toContain("\n");
      });
    });
  }
});
