import type { LintSeverity } from "../results.js";
import type { LintContext } from "./lint-context.js";

/** Where a violation is and what to say about it; the engine adds the rule's code, name and severity. */
export interface LintFinding {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column in code points. */
  readonly column: number;
  readonly message: string;
  readonly suggestion: string;
}

/**
 * One lint rule: stable code, CamelCase name, severity, documentation with tested examples, and
 * a single-pass check over the shared {@link LintContext} (tokens and lines computed once per call).
 *
 * @example
 * const rule: LintRule = {
 *   code: "L999", name: "NoSelectStar", severity: "info", category: "style",
 *   description: "…", bad: "SELECT * FROM t", good: "SELECT id FROM t",
 *   check(ctx, report) {
 *     for (const t of ctx.tokens) if (t.text === "*") report({ line: t.line, column: t.column, message: "…", suggestion: "…" });
 *   },
 * };
 */
export interface LintRule {
  /** Stable code, `L001`…`L010`. */
  readonly code: string;
  /** CamelCase name used as `rule_name`. */
  readonly name: string;
  readonly severity: LintSeverity;
  readonly category: "whitespace" | "style" | "keywords";
  /** One paragraph: what the rule checks and why. */
  readonly description: string;
  /** SQL that triggers this rule. */
  readonly bad: string;
  /** SQL that triggers no rule at all. */
  readonly good: string;
  check(context: LintContext, report: (finding: LintFinding) => void): void;
}
