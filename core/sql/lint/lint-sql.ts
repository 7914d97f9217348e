import type { LintResult, LintViolation } from "../results.js";
import type { Token } from "../token.js";
import { tokenize } from "../tokenizer.js";
import { createLintContext } from "./lint-context.js";
import type { LintRule } from "./lint-rule.js";
import { LINT_RULES } from "./lint-rules.js";

/**
 * Lints `sql` against every rule of the registry (or the given rules): tokenises once, runs each
 * rule's single pass and returns the violations sorted by line, column, then rule code. Works on
 * any text, including SQL that does not parse.
 *
 * @example
 * lintSql("select id from users   \n").violations.map((v) => v.rule);
 * // ["L007", "L007", "L001", "L010"]
 */
export function lintSql(
  sql: string,
  rules: readonly LintRule[] = LINT_RULES,
  tokens: readonly Token[] = tokenize(sql),
): LintResult {
  const context = createLintContext(sql, tokens);
  const violations: LintViolation[] = [];
  for (const rule of rules) {
    rule.check(context, (finding) => {
      violations.push({
        rule: rule.code,
        rule_name: rule.name,
        severity: rule.severity,
        message: finding.message,
        line: finding.line,
        column: finding.column,
        suggestion: finding.suggestion,
      });
    });
  }
  violations.sort(
    (a, b) =>
      a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
  return { violation_count: violations.length, violations };
}
