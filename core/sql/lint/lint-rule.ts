import type { LintSeverity, LintViolation } from "../results.js";
import type { LintContext } from "./lint-context.js";
import type { LintRuleOptions } from "./lint-options.js";
import type { TextEdit } from "./text-edit.js";

/** Where a violation is and what to say about it; the engine adds the rule's code, name and severity. */
export interface LintFinding {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column in code points. */
  readonly column: number;
  readonly message: string;
  readonly suggestion: string;
  /**
   * The edits that fix this violation without changing what the SQL means (only whitespace,
   * keyword case or comma position), applied all together or not at all. Absent when the rule
   * cannot fix it safely.
   */
  readonly fix?: readonly TextEdit[];
}

/** One setting a rule reads, for the documentation. */
export interface LintRuleOption {
  /** The key under the rule's code in `rule_options` (`max_length`). */
  readonly name: string;
  /** What values it takes (`integer 1-100000`, `upper, lower or consistent`). */
  readonly values: string;
  readonly description: string;
}

/** A bad and a good example under non-default settings, tested like the rule's own examples. */
export interface LintRuleExample {
  readonly options: LintRuleOptions;
  /** SQL that triggers this rule under `options`. */
  readonly bad: string;
  /** SQL that triggers no rule at all under `options`. */
  readonly good: string;
}

/**
 * What a rule is about; each category is also a group name for `rules` and `exclude_rules`.
 * The seed's ten rules are whitespace, style and keywords.
 */
export type LintCategory =
  | "whitespace"
  | "style"
  | "keywords"
  | "safety"
  | "ambiguity"
  | "references"
  | "anti-pattern"
  | "aliasing"
  | "consistency";

/** Every category, in the order the documentation lists them. */
export const LINT_CATEGORIES: readonly LintCategory[] = [
  "whitespace",
  "style",
  "keywords",
  "safety",
  "ambiguity",
  "references",
  "anti-pattern",
  "aliasing",
  "consistency",
];

/**
 * One lint rule: stable code, CamelCase name, severity, documentation with tested examples, and
 * a single-pass check over the shared {@link LintContext} (tokens, lines and settings computed
 * once per call). A fixable rule attaches the edits that fix each finding.
 *
 * @example
 * const rule: LintRule = {
 *   code: "L999", name: "NoSelectStar", severity: "info", category: "style", fixable: false,
 *   description: "…", bad: "SELECT * FROM t", good: "SELECT id FROM t",
 *   check(ctx, report) {
 *     for (const t of ctx.tokens) if (t.text === "*") report({ line: t.line, column: t.column, message: "…", suggestion: "…" });
 *   },
 * };
 */
export interface LintRule {
  /** Stable code, `L001`…. */
  readonly code: string;
  /** CamelCase name used as `rule_name`. */
  readonly name: string;
  readonly severity: LintSeverity;
  readonly category: LintCategory;
  /**
   * The codes and dotted names SQLFluff gives the same check (`AM04`, `ambiguous.column_count`):
   * `rules`, `exclude_rules` and `noqa` accept them, so SQLFluff habits keep working.
   */
  readonly aliases?: readonly string[];
  /**
   * The one-line text of a violation for compact output, when the message alone leaves out what
   * the suggestion carries (absent: the message).
   */
  compact?(violation: LintViolation): string;
  /** One paragraph: what the rule checks and why. */
  readonly description: string;
  /** SQL that triggers this rule. */
  readonly bad: string;
  /** SQL that triggers no rule at all. */
  readonly good: string;
  /** True when the rule attaches fixes to its findings (`sqlsvc fix`, `lint_sql` with `fix`). */
  readonly fixable: boolean;
  /** The settings the rule reads from `rule_options.<code>`. */
  readonly options?: readonly LintRuleOption[];
  /** Examples under non-default settings, one per option value worth showing. */
  readonly examples?: readonly LintRuleExample[];
  check(context: LintContext, report: (finding: LintFinding) => void): void;
}
