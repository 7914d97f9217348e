/**
 * The SQL linter: ten style rules (L001–L010) over the tokenizer's output.
 *
 * @example
 * import { lintSql, LINT_RULES } from "./lint/index.js";
 * lintSql("SELECT id FROM users").violation_count; // 0
 */
export { lintSql } from "./lint-sql.js";
export { LINT_RULES } from "./lint-rules.js";
export { createLintContext, codePointLength, isSignificant } from "./lint-context.js";
export type { LintContext, LintLine } from "./lint-context.js";
export type { LintFinding, LintRule } from "./lint-rule.js";
