import type { LintResult, LintViolation } from "../results.js";
import type { Token } from "../token.js";
import { createLintContext } from "./lint-context.js";
import type { LintRule } from "./lint-rule.js";
import { resolveLintSettings, type LintOptions } from "./lint-options.js";
import { dialectTokens, lintTokens } from "./lint-tokens.js";
import { readNoqa } from "./noqa.js";
import { findLintRules, selectLintRules } from "./select-rules.js";
import type { TextEdit } from "./text-edit.js";

/** A violation with the edits that fix it, when its rule has a safe fix. */
export interface LintViolationWithFix {
  readonly violation: LintViolation;
  readonly fix: readonly TextEdit[] | undefined;
}

/**
 * Lints `sql` with the rules `options` selects (the seed's L001–L010 by default), under its settings and dialect:
 * tokenises once, runs each rule's single pass, drops what `noqa` comments silence and returns
 * the violations sorted by line, column, then rule code. Works on any text, including SQL that
 * does not parse. Unknown rule names and out-of-range settings are `invalid_input` errors naming
 * the key. `tokens` may be given when the caller already has them for the generic reading.
 *
 * @example
 * lintSql("select id from users   \n").violations.map((v) => v.rule);
 * // ["L007", "L007", "L001", "L010"]
 * lintSql("select id from users -- noqa: L007").violation_count; // 0
 * lintSql("select id from users", { rule_options: { L007: { keyword_case: "lower" } } }).violation_count; // 0
 */
export function lintSql(
  sql: string,
  options: LintOptions = {},
  tokens?: readonly Token[],
): LintResult {
  const violations = lintWithFixes(sql, options, tokens).map((v) => v.violation);
  return { violation_count: violations.length, violations };
}

/**
 * The fixes that only change blanks or letter case. Text with Jinja control flow (`{% if %}…{%
 * endif %}`, as in dbt models) is not the SQL that runs: `max(x) AS x {% if not loop.last %},{%
 * endif %}` reads as a trailing comma, and removing it broke the rendered query. There, only
 * these fixes are applied; the others are reported without a fix.
 */
const LAYOUT_AND_CASE_FIXES: ReadonlySet<string> = new Set([
  "L001",
  "L002",
  "L003",
  "L007",
  "L010",
  "L034",
]);

/**
 * {@link lintSql} keeping each violation's fix (for `fixSql`), in the same order.
 *
 * @example
 * lintWithFixes("SELECT 1  ")[0]?.fix; // [{ start: 8, end: 10, text: "" }]
 */
export function lintWithFixes(
  sql: string,
  options: LintOptions = {},
  tokens?: readonly Token[],
): LintViolationWithFix[] {
  const rules: readonly LintRule[] = selectLintRules(options);
  const settings = resolveLintSettings(options.rule_options);
  const dialect = options.dialect ?? "generic";
  const read =
    tokens !== undefined && dialect !== "mysql"
      ? dialectTokens(tokens as Token[], dialect)
      : lintTokens(sql, dialect);
  const context = createLintContext(sql, read, settings, dialect);
  const noqa = readNoqa(read, (name) => findLintRules(name).map((rule) => rule.code));
  const controlFlow = read.some((t) => t.kind === "block_comment" && t.text.startsWith("{%"));
  const out: LintViolationWithFix[] = [];
  for (const rule of rules) {
    const fixable = !controlFlow || LAYOUT_AND_CASE_FIXES.has(rule.code);
    rule.check(context, (finding) => {
      if (noqa.any && noqa.suppresses(finding.line, rule.code)) return;
      out.push({
        violation: {
          rule: rule.code,
          rule_name: rule.name,
          severity: rule.severity,
          message: finding.message,
          line: finding.line,
          column: finding.column,
          suggestion: finding.suggestion,
        },
        fix: fixable ? finding.fix : undefined,
      });
    });
  }
  out.sort((x, y) => {
    const a = x.violation;
    const b = y.violation;
    return (
      a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)
    );
  });
  return out;
}
