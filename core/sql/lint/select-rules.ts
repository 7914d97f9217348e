import { AgentServicesError } from "../../errors.js";
import type { LintRule } from "./lint-rule.js";
import { LINT_RULES } from "./lint-rules.js";

const BY_NAME: ReadonlyMap<string, LintRule> = new Map(
  LINT_RULES.flatMap((rule) => [
    [rule.code.toUpperCase(), rule],
    [rule.name.toUpperCase(), rule],
  ]),
);

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
 * The rules to run: those named in `rules` (all when absent), minus those in `exclude_rules`, in
 * registry order. A name no rule has is an `invalid_input` error naming the key and the value.
 *
 * @example
 * selectLintRules({ rules: ["L001", "KeywordCase"] }).map((r) => r.code); // ["L001", "L007"]
 * selectLintRules({ exclude_rules: ["L006"] }).length; // 9
 */
export function selectLintRules(options: {
  readonly rules?: readonly string[] | undefined;
  readonly exclude_rules?: readonly string[] | undefined;
}): readonly LintRule[] {
  const resolve = (key: string, names: readonly string[]) =>
    new Set(
      names.map((name) => {
        const rule = findLintRule(name);
        if (rule === undefined) {
          throw new AgentServicesError(
            "invalid_input",
            `${key}: unknown rule '${name}' (expected a code L001-L010 or a rule name such as KeywordCase)`,
          );
        }
        return rule;
      }),
    );
  if (options.rules === undefined && options.exclude_rules === undefined) return LINT_RULES;
  const included = options.rules === undefined ? undefined : resolve("rules", options.rules);
  const excluded = resolve("exclude_rules", options.exclude_rules ?? []);
  return LINT_RULES.filter(
    (rule) => (included === undefined || included.has(rule)) && !excluded.has(rule),
  );
}
