import { AgentServicesError } from "../../errors.js";
import { LINT_CATEGORIES, type LintRule } from "./lint-rule.js";
import { LINT_RULES } from "./lint-rules.js";

/**
 * The rules that run when no `rules` option is given: the seed's ten (L001–L010), so a seed
 * client of `lint_sql` sees exactly the seed's answers. The others are chosen by code, name,
 * SQLFluff alias, category or `all`.
 */
export const DEFAULT_LINT_RULE_CODES: readonly string[] = [
  "L001",
  "L002",
  "L003",
  "L004",
  "L005",
  "L006",
  "L007",
  "L008",
  "L009",
  "L010",
];

const DEFAULT_RULES: readonly LintRule[] = LINT_RULES.filter((rule) =>
  DEFAULT_LINT_RULE_CODES.includes(rule.code),
);

const BY_NAME: ReadonlyMap<string, LintRule> = new Map(
  LINT_RULES.flatMap((rule) => [
    [rule.code.toUpperCase(), rule],
    [rule.name.toUpperCase(), rule],
  ]),
);

/** Aliases and groups: one SQLFluff code may name several of our rules (LT01 is L001 and L010). */
const GROUPS: ReadonlyMap<string, readonly LintRule[]> = (() => {
  const map = new Map<string, LintRule[]>();
  const add = (key: string, rule: LintRule) => {
    const list = map.get(key.toUpperCase()) ?? [];
    if (!list.includes(rule)) list.push(rule);
    map.set(key.toUpperCase(), list);
  };
  for (const rule of LINT_RULES) {
    for (const alias of rule.aliases ?? []) add(alias, rule);
    add(rule.category, rule);
    add("all", rule);
  }
  for (const category of LINT_CATEGORIES)
    map.set(category.toUpperCase(), map.get(category.toUpperCase()) ?? []);
  return map;
})();

/**
 * The rule a code or CamelCase name refers to, in any letter case, or undefined.
 *
 * @example
 * findLintRule("keywordcase")?.code; // "L007"
 * findLintRule("l005")?.name; // "LongLines"
 */
export function findLintRule(name: string): LintRule | undefined {
  return BY_NAME.get(name.trim().toUpperCase());
}

/**
 * The rules a name stands for: a code or name (one rule), a SQLFluff alias such as `CP01` or
 * `ambiguous.column_count` (the rules carrying it), a category such as `safety`, or `all`.
 * Empty for a name nothing has.
 *
 * @example
 * findLintRules("AM04").map((r) => r.code); // ["L022"]
 * findLintRules("LT01").map((r) => r.code); // ["L001", "L010"]
 * findLintRules("safety").length; // 4
 */
export function findLintRules(name: string): readonly LintRule[] {
  const key = name.trim().toUpperCase();
  const one = BY_NAME.get(key);
  return one !== undefined ? [one] : (GROUPS.get(key) ?? []);
}

/**
 * The rules to run: those named in `rules` (the seed's L001–L010 when absent), minus those in
 * `exclude_rules`, in registry order. Names are codes, CamelCase names, SQLFluff aliases,
 * categories or `all`. A name nothing has is an `invalid_input` error naming the key and value.
 *
 * @example
 * selectLintRules({ rules: ["L001", "KeywordCase"] }).map((r) => r.code); // ["L001", "L007"]
 * selectLintRules({ exclude_rules: ["L006"] }).length; // 9
 * selectLintRules({ rules: ["all"], exclude_rules: ["CP01"] }).some((r) => r.code === "L007"); // false
 */
export function selectLintRules(options: {
  readonly rules?: readonly string[] | undefined;
  readonly exclude_rules?: readonly string[] | undefined;
}): readonly LintRule[] {
  const resolve = (key: string, names: readonly string[]) =>
    new Set(
      names.flatMap((name) => {
        const rules = findLintRules(name);
        if (rules.length === 0 && !GROUPS.has(name.trim().toUpperCase())) {
          throw new AgentServicesError(
            "invalid_input",
            `${key}: unknown rule '${name}' (expected a code such as L007, a name such as KeywordCase, a SQLFluff code such as CP01, a category such as safety, or all)`,
          );
        }
        return rules;
      }),
    );
  if (options.rules === undefined && options.exclude_rules === undefined) return DEFAULT_RULES;
  const included = options.rules === undefined ? undefined : resolve("rules", options.rules);
  const excluded = resolve("exclude_rules", options.exclude_rules ?? []);
  const from = included === undefined ? DEFAULT_RULES : LINT_RULES;
  return from.filter(
    (rule) => (included === undefined || included.has(rule)) && !excluded.has(rule),
  );
}
