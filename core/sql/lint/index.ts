/**
 * The SQL linter: the seed's ten style rules (L001–L010, on by default) and rules for safety,
 * ambiguity, references, anti-patterns, aliasing and consistency (chosen with `rules`, SQLFluff
 * codes accepted), over the tokenizer's output, with per-rule settings, dialects, `noqa`
 * suppression, meaning-preserving fixes and a compact one-line-per-violation format.
 *
 * @example
 * import { fixSql, lintSql, LINT_RULES } from "./lint/index.js";
 * lintSql("SELECT id FROM users").violation_count; // 0
 * fixSql("select id from users").fixed_sql; // "SELECT id FROM users"
 */
export { lintSql, lintWithFixes } from "./lint-sql.js";
export type { LintViolationWithFix } from "./lint-sql.js";
export { fixSql } from "./fix-sql.js";
export type { FixResult } from "../results.js";
export { LINT_RULES } from "./lint-rules.js";
export {
  DEFAULT_LINT_RULE_CODES,
  findLintRule,
  findLintRules,
  selectLintRules,
} from "./select-rules.js";
export { compactViolation, formatLintCompact } from "./compact-lint.js";
export {
  LEX_ERROR_CODE,
  lexViolations,
  PARSE_ERROR_CODE,
  parseViolation,
} from "./syntax-violations.js";
export { DEFAULT_LINT_SETTINGS, LINT_SETTING_BOUNDS, resolveLintSettings } from "./lint-options.js";
export type {
  CommaStyle,
  KeywordCasePolicy,
  LintOptions,
  LintRuleOptions,
  LintSettings,
} from "./lint-options.js";
export { readNoqa } from "./noqa.js";
export type { Noqa } from "./noqa.js";
export { lintTokens, dialectTokens, INTERVAL_UNITS } from "./lint-tokens.js";
export { sameMeaning } from "./same-meaning.js";
export { applyEdits } from "./text-edit.js";
export type { TextEdit } from "./text-edit.js";
export { createLintContext, codePointLength, isSignificant } from "./lint-context.js";
export type { LintContext, LintLine } from "./lint-context.js";
export { LINT_CATEGORIES } from "./lint-rule.js";
export type {
  LintCategory,
  LintFinding,
  LintRule,
  LintRuleExample,
  LintRuleOption,
} from "./lint-rule.js";
