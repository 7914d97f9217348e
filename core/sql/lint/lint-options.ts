import { AgentServicesError } from "../../errors.js";
import type { SqlDialect } from "../dialects.js";

/** L007's policy: every keyword upper case, lower case, or the case of the first keyword. */
export type KeywordCasePolicy = "upper" | "lower" | "consistent";

/** L008's policy: commas end the line (`a,`) or begin the next one (`, b`). */
export type CommaStyle = "trailing" | "leading";

/**
 * The per-rule settings, every one filled in. Keyed by rule code so a setting's name says which
 * rule reads it (`L005.max_length`).
 */
export interface LintSettings {
  /** IndentationDepth: spaces per level (a tab counts as this many) and the deepest level allowed. */
  readonly L004: { readonly indent_size: number; readonly max_depth: number };
  /** LongLines: the longest line allowed, in characters (code points). */
  readonly L005: { readonly max_length: number };
  /** KeywordCase: which case keywords must be written in. */
  readonly L007: { readonly keyword_case: KeywordCasePolicy };
  /** CommaPlacement: which comma style is expected. */
  readonly L008: { readonly comma_style: CommaStyle };
  /** AliasingConsistency: whether table and column aliases must be written with `AS`. */
  readonly L009: { readonly require_table_as: boolean; readonly require_column_as: boolean };
}

/** The settings a caller may give: any rule's section, any key of it (undefined = default). */
export type LintRuleOptions = {
  readonly [K in keyof LintSettings]?:
    { readonly [P in keyof LintSettings[K]]?: LintSettings[K][P] | undefined } | undefined;
};

/**
 * What `lintSql` and `fixSql` take: which rules run (codes or names; all when `rules` is absent),
 * which are left out, the dialect the text is read in, and per-rule settings. Every field is
 * optional and the defaults are the seed's behaviour.
 *
 * @example
 * const options: LintOptions = {
 *   exclude_rules: ["L006", "ColumnAlignment"],
 *   dialect: "mysql",
 *   rule_options: { L005: { max_length: 120 }, L007: { keyword_case: "lower" } },
 * };
 */
export interface LintOptions {
  readonly rules?: readonly string[];
  readonly exclude_rules?: readonly string[];
  readonly dialect?: SqlDialect;
  readonly rule_options?: LintRuleOptions;
}

/**
 * The seed's thresholds: indentation 4 levels of 4 spaces, 100 characters per line, upper-case
 * keywords, trailing commas, `AS` required for column aliases but not for table aliases.
 */
export const DEFAULT_LINT_SETTINGS: LintSettings = {
  L004: { indent_size: 4, max_depth: 4 },
  L005: { max_length: 100 },
  L007: { keyword_case: "upper" },
  L008: { comma_style: "trailing" },
  L009: { require_table_as: false, require_column_as: true },
};

/** Bounds of the numeric settings (also used by the shells' validation). */
export const LINT_SETTING_BOUNDS = {
  "L004.indent_size": { min: 1, max: 16 },
  "L004.max_depth": { min: 0, max: 100 },
  "L005.max_length": { min: 1, max: 100_000 },
} as const;

/**
 * The settings with the caller's values over the defaults; numbers out of bounds are rejected
 * with `invalid_input` naming the key (the shells validate first; this guards library callers).
 *
 * @example
 * resolveLintSettings({ L005: { max_length: 120 } }).L005.max_length; // 120
 * resolveLintSettings({}).L004.indent_size; // 4
 */
export function resolveLintSettings(options: LintRuleOptions = {}): LintSettings {
  const d = DEFAULT_LINT_SETTINGS;
  const settings: LintSettings = {
    L004: { ...d.L004, ...defined<LintSettings["L004"]>(options.L004) },
    L005: { ...d.L005, ...defined<LintSettings["L005"]>(options.L005) },
    L007: { ...d.L007, ...defined<LintSettings["L007"]>(options.L007) },
    L008: { ...d.L008, ...defined<LintSettings["L008"]>(options.L008) },
    L009: { ...d.L009, ...defined<LintSettings["L009"]>(options.L009) },
  };
  for (const [key, bounds] of Object.entries(LINT_SETTING_BOUNDS)) {
    const [code, name] = key.split(".") as [keyof LintSettings, string];
    const value = (settings[code] as unknown as Record<string, unknown>)[name];
    if (
      typeof value !== "number" ||
      !Number.isInteger(value) ||
      value < bounds.min ||
      value > bounds.max
    ) {
      throw new AgentServicesError(
        "invalid_input",
        `rule_options.${key}: expected an integer from ${bounds.min} to ${bounds.max}, got ${String(value)}`,
      );
    }
  }
  return settings;
}

/** `section` without its undefined values, so they do not hide the defaults. */
function defined<T extends object>(
  section: { readonly [K in keyof T]?: T[K] | undefined } | undefined,
): Partial<T> {
  if (section === undefined) return {};
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(section)) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}
