import type { LintResult, LintViolation } from "../../core/sql/results.js";

/**
 * A lint result with one line per violation instead of an object: `CODE line:col message`
 * (no name, severity or suggestion), for callers that read many violations (`compact: true`).
 *
 * @example
 * compactLint({ violation_count: 1, violations: [{ rule: "L001", line: 1, column: 9, message: "Line has trailing whitespace", … }] });
 * // { violation_count: 1, violations: ["L001 1:9 Line has trailing whitespace"] }
 */
export function compactLint(result: LintResult): CompactLintResult {
  return {
    violation_count: result.violation_count,
    violations: result.violations.map(compactLine),
  };
}

/** What {@link compactLint} answers. */
export interface CompactLintResult {
  violation_count: number;
  violations: string[];
}

function compactLine(v: LintViolation): string {
  return `${v.rule} ${v.line}:${v.column} ${v.message}`;
}
