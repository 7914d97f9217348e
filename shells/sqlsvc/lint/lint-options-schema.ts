import * as v from "valibot";
import { SQL_DIALECTS, toSqlDialect, type SqlDialect } from "../../../core/sql/dialects.js";
import {
  DEFAULT_LINT_SETTINGS,
  findLintRules,
  LINT_SETTING_BOUNDS,
  type LintOptions,
} from "../../../core/sql/lint/index.js";
import { optionalDialect } from "../sql-tool-params.js";

const RULE_NAME =
  "expected a rule code (L001-L038), name (KeywordCase), SQLFluff code (CP01), category (safety) or all";

const ruleName = v.pipe(
  v.string(RULE_NAME),
  v.check(
    (name) => findLintRules(name).length > 0,
    (issue) => `unknown rule ${shown(issue.input)}: ${RULE_NAME}`,
  ),
);

const ruleList = (what: string) =>
  v.optional(
    v.pipe(
      v.array(ruleName, "expected a list of rule codes or names"),
      v.description(what),
      v.metadata({ examples: [["L006", "AliasingConsistency"]] }),
    ),
  );

function integer(key: keyof typeof LINT_SETTING_BOUNDS, description: string) {
  const { min, max } = LINT_SETTING_BOUNDS[key];
  const message = (issue: { input: unknown }) =>
    `expected an integer from ${min} to ${max}, got ${shown(issue.input)}`;
  return v.optional(
    v.pipe(
      v.number(message),
      v.integer(message),
      v.minValue(min, message),
      v.maxValue(max, message),
      v.description(description),
    ),
  );
}

function choice<const T extends readonly string[]>(values: T, description: string) {
  return v.optional(
    v.pipe(
      v.picklist(
        values,
        (issue) => `expected one of ${values.join(", ")}, got ${shown(issue.input)}`,
      ),
      v.description(description),
    ),
  );
}

function flag(description: string) {
  return v.optional(
    v.pipe(
      v.boolean((issue) => `expected true or false, got ${shown(issue.input)}`),
      v.description(description),
    ),
  );
}

const section = <T extends v.ObjectEntries>(entries: T, description: string) =>
  v.optional(
    v.pipe(
      v.strictObject(entries, (issue) =>
        issue.expected === "never" ? `unknown key ${shown(issue.input)}` : "expected an object",
      ),
      v.description(description),
    ),
  );

const d = DEFAULT_LINT_SETTINGS;

/**
 * The `rule_options` object: per-rule settings keyed by rule code, every key optional, unknown
 * keys rejected (a typo never falls back to a default silently).
 *
 * @example
 * v.parse(ruleOptionsSchema, { L005: { max_length: 120 } });
 */
export const ruleOptionsSchema = v.strictObject(
  {
    L004: section(
      {
        indent_size: integer(
          "L004.indent_size",
          `Spaces per indentation level (default ${d.L004.indent_size}).`,
        ),
        max_depth: integer(
          "L004.max_depth",
          `Deepest indentation level allowed (default ${d.L004.max_depth}).`,
        ),
      },
      "IndentationDepth settings.",
    ),
    L005: section(
      {
        max_length: integer(
          "L005.max_length",
          `Longest line in characters (default ${d.L005.max_length}).`,
        ),
      },
      "LongLines settings.",
    ),
    L007: section(
      {
        keyword_case: choice(
          ["upper", "lower", "consistent"] as const,
          "Keyword case: upper (default), lower, or consistent with the first keyword.",
        ),
      },
      "KeywordCase settings.",
    ),
    L008: section(
      {
        comma_style: choice(
          ["trailing", "leading"] as const,
          "Comma style: trailing (default) or leading.",
        ),
      },
      "CommaPlacement settings.",
    ),
    L009: section(
      {
        require_table_as: flag("Require AS before table aliases (default false)."),
        require_column_as: flag("Require AS before column aliases (default true)."),
      },
      "AliasingConsistency settings.",
    ),
  },
  (issue) =>
    issue.expected === "never"
      ? `unknown key ${shown(issue.input)}: settings exist for L004, L005, L007, L008 and L009`
      : "expected an object keyed by rule code",
);

const dialect = optionalDialect(
  `SQL dialect to read the text in: ${SQL_DIALECTS.join(", ")} (default generic).`,
  dialectMessage,
);

function dialectMessage(input: unknown): string {
  return `expected one of ${SQL_DIALECTS.join(", ")} (any letter case), got ${shown(input)}`;
}

/**
 * The lint options as object entries, shared by the `lint_sql` / `fix_sql` parameters and the
 * `.sqlsvc.yaml` file: `rules`, `exclude_rules`, `dialect`, `rule_options`.
 *
 * @example
 * v.object({ sql: sqlParam("…"), ...lintOptionEntries });
 */
export const lintOptionEntries = {
  rules: ruleList(
    "Run only these rules: codes (L022), names (SelectStar), SQLFluff codes (AM04), categories " +
      "(safety, ambiguity, references, anti-pattern, aliasing, consistency) or all; default the " +
      "seed's L001-L010.",
  ),
  exclude_rules: ruleList("Skip these rules (the same names as rules)."),
  dialect,
  rule_options: v.optional(
    v.pipe(
      ruleOptionsSchema,
      v.description(
        "Per-rule settings keyed by rule code: L004 {indent_size, max_depth}, L005 {max_length}, " +
          "L007 {keyword_case}, L008 {comma_style}, L009 {require_table_as, require_column_as}.",
      ),
    ),
  ),
};

/** What the entries parse to. */
export interface ParsedLintOptions {
  rules?: string[] | undefined;
  exclude_rules?: string[] | undefined;
  dialect?: string | undefined;
  rule_options?: v.InferOutput<typeof ruleOptionsSchema> | undefined;
}

/**
 * The core's `LintOptions` from parsed arguments (dialect names normalised), leaving out what
 * was not given.
 *
 * @example
 * toLintOptions({ dialect: "MySQL" }); // { dialect: "mysql" }
 */
export function toLintOptions(parsed: ParsedLintOptions): LintOptions {
  const out: { -readonly [K in keyof LintOptions]: LintOptions[K] } = {};
  if (parsed.rules !== undefined) out.rules = parsed.rules;
  if (parsed.exclude_rules !== undefined) out.exclude_rules = parsed.exclude_rules;
  if (parsed.dialect !== undefined) out.dialect = toSqlDialect(parsed.dialect) as SqlDialect;
  if (parsed.rule_options !== undefined) out.rule_options = parsed.rule_options;
  return out;
}

/** A short rendering of a rejected value for error messages. */
function shown(input: unknown): string {
  if (input === undefined) return "nothing";
  const json = JSON.stringify(input);
  return json.length > 40 ? `${json.slice(0, 37)}...` : json;
}
