import type { LintViolation } from "../results.js";
import { findLintRule } from "./select-rules.js";

/**
 * One violation as one short line, `line:column CODE text`: the message alone (the suggestion
 * repeats it in other words), or the rule's own compact text when its message leaves out a
 * figure the suggestion carries (LongLines).
 *
 * @example
 * compactViolation(lintSql("select 1").violations[0]!); // "1:1 L007 Keyword 'select' should be uppercase: 'SELECT'"
 */
export function compactViolation(violation: LintViolation): string {
  const rule = findLintRule(violation.rule);
  const text = rule?.compact?.(violation) ?? violation.message;
  return `${violation.line}:${violation.column} ${violation.rule} ${text}`;
}

/**
 * Violations as compact lines, one per violation, each ending in a newline; with `file`, each
 * line starts `file:` (the `path:line:column` form editors and CI annotate). Empty for none.
 *
 * @example
 * formatLintCompact(lintSql("SELECT 1  ").violations, "q.sql");
 * // "q.sql:1:9 L001 Line has trailing whitespace\nq.sql:1:9 L010 Multiple consecutive spaces found\n"
 */
export function formatLintCompact(violations: readonly LintViolation[], file?: string): string {
  let out = "";
  for (const v of violations)
    out += `${file === undefined ? "" : `${file}:`}${compactViolation(v)}\n`;
  return out;
}
