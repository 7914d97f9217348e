import { describe, expect, it } from "vitest";
import {
  DEFAULT_LINT_SETTINGS,
  fixSql,
  LINT_RULES,
  lintSql,
  lintWithFixes,
  lintTokens,
  sameMeaning,
} from "../../../../core/sql/lint/index.js";

/** Every rule: the default selection is the seed's ten. */
const ALL = { rules: ["all"] };

describe("lint rule registry", () => {
  it("holds the seed's ten rules L001 to L010 first, with the spec's names", () => {
    expect(LINT_RULES.slice(0, 10).map((r) => `${r.code} ${r.name}`)).toEqual([
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

  it("holds at least 30 rules with unique codes in code order and unique names (issue 25)", () => {
    expect(LINT_RULES.length).toBeGreaterThanOrEqual(30);
    const codes = LINT_RULES.map((r) => r.code);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(LINT_RULES.map((r) => r.name)).size).toBe(codes.length);
  });

  it("covers safety, ambiguity, references, anti-patterns, aliasing and consistency", () => {
    const categories = new Set(LINT_RULES.map((r) => r.category));
    for (const c of [
      "safety",
      "ambiguity",
      "references",
      "anti-pattern",
      "aliasing",
      "consistency",
    ])
      expect(categories.has(c as never), c).toBe(true);
  });

  it("marks L001, L002, L003, L007, L008 and L010 as the fixable seed rules", () => {
    expect(
      LINT_RULES.slice(0, 10)
        .filter((r) => r.fixable)
        .map((r) => r.code),
    ).toEqual(["L001", "L002", "L003", "L007", "L008", "L010"]);
  });

  for (const rule of LINT_RULES) {
    describe(`${rule.code} ${rule.name}`, () => {
      it("is triggered by its bad example", () => {
        const hits = lintSql(rule.bad, ALL).violations.filter((v) => v.rule === rule.code);
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) {
          expect(hit).toMatchObject({ rule_name: rule.name, severity: rule.severity });
        }
      });

      it("accepts its good example without any violation of any rule", () => {
        expect(lintSql(rule.good, ALL).violations).toEqual([]);
      });

      it("documents itself in one paragraph", () => {
        expect(rule.description.length).toBeGreaterThan(80);
        expect(rule.description).not.toContain("\n");
      });

      it("is silenced on its bad example by noqa naming its code, its name, or nothing", () => {
        const names = [rule.code, rule.name, ...(rule.aliases ?? [])];
        for (const comment of [...names.map((n) => `-- noqa: ${n}`), "-- noqa"]) {
          const sql = `-- noqa: disable=${rule.code}\n${rule.bad}\n-- noqa: enable=${rule.code}`;
          expect(
            lintSql(sql, ALL).violations.filter((v) => v.rule === rule.code),
            sql,
          ).toEqual([]);
          // The line form silences only the lines that carry the comment.
          const perLine = rule.bad
            .split("\n")
            .map((line) => `${line} ${comment}`)
            .join("\n");
          const left = lintSql(perLine, ALL).violations.filter((v) => v.rule === rule.code);
          expect(left, perLine).toEqual([]);
        }
      });

      it("is chosen and left out by each of its SQLFluff aliases", () => {
        for (const alias of rule.aliases ?? []) {
          expect(lintSql(rule.bad, { rules: [alias] }).violations.map((v) => v.rule)).toContain(
            rule.code,
          );
          expect(
            lintSql(rule.bad, { rules: ["all"], exclude_rules: [alias] }).violations.map(
              (v) => v.rule,
            ),
          ).not.toContain(rule.code);
        }
      });

      it("runs only when selected", () => {
        expect(
          lintSql(rule.bad, { exclude_rules: [rule.code] }).violations.map((v) => v.rule),
        ).not.toContain(rule.code);
        const only = lintSql(rule.bad, { rules: [rule.name] }).violations;
        expect(only.length).toBeGreaterThan(0);
        expect(new Set(only.map((v) => v.rule))).toEqual(new Set([rule.code]));
      });

      it("names only settings that exist under its code, with their documented defaults", () => {
        const defaults = (DEFAULT_LINT_SETTINGS as unknown as Record<string, object | undefined>)[
          rule.code
        ];
        const names = (rule.options ?? []).map((o) => o.name).sort();
        expect(names).toEqual(Object.keys(defaults ?? {}).sort());
        for (const option of rule.options ?? []) {
          const value = (defaults as Record<string, unknown>)[option.name];
          expect(option.values).toContain(`default ${String(value)}`);
        }
      });

      for (const example of rule.examples ?? []) {
        const label = JSON.stringify(example.options);
        it(`with ${label}: the example's bad SQL triggers it and its good SQL triggers nothing`, () => {
          const options = { rule_options: example.options };
          const ofRule = (sql: string, opts = {}) =>
            lintSql(sql, opts).violations.filter((v) => v.rule === rule.code);
          const bad = ofRule(example.bad, options);
          expect(bad.length).toBeGreaterThan(0);
          expect(lintSql(example.good, options).violations).toEqual([]);
          // The setting must matter: the defaults judge the bad or the good example differently.
          const changed =
            JSON.stringify(ofRule(example.bad)) !== JSON.stringify(bad) ||
            ofRule(example.good).length > 0;
          expect(changed).toBe(true);
        });
      }

      if (rule.fixable) {
        it("fixes its bad example: no violation of it left, same meaning, a second fix changes nothing", () => {
          for (const options of [{ rules: [rule.code] }, ALL]) {
            const once = fixSql(rule.bad, options);
            expect(once.changed).toBe(true);
            expect(once.remaining.violations.filter((v) => v.rule === rule.code)).toEqual([]);
            expect(sameMeaning(lintTokens(rule.bad), lintTokens(once.fixed_sql))).toBe(true);
            expect(fixSql(once.fixed_sql, options).fixed_sql).toBe(once.fixed_sql);
          }
        });
        for (const example of rule.examples ?? []) {
          it(`fixes the bad SQL of ${JSON.stringify(example.options)} under that setting`, () => {
            const options = { rule_options: example.options };
            const once = fixSql(example.bad, options);
            expect(once.remaining.violations.filter((v) => v.rule === rule.code)).toEqual([]);
            expect(sameMeaning(lintTokens(example.bad), lintTokens(once.fixed_sql))).toBe(true);
            expect(fixSql(once.fixed_sql, options).changed).toBe(false);
          });
        }
      } else {
        it("offers no fix", () => {
          const found = lintWithFixes(rule.bad, ALL).filter((v) => v.violation.rule === rule.code);
          expect(found.length).toBeGreaterThan(0);
          expect(found.every((v) => v.fix === undefined)).toBe(true);
        });
      }
    });
  }
});
