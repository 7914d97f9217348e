import type { FixResult, LintViolation } from "../results.js";
import type { LintOptions } from "./lint-options.js";
import { lintTokens } from "./lint-tokens.js";
import { lintWithFixes } from "./lint-sql.js";
import { sameMeaning } from "./same-meaning.js";
import { applyEdits } from "./text-edit.js";

/** Passes over the text; each pass applies every fix that does not clash with another. */
const MAX_PASSES = 10;

/**
 * Applies the fixes of the selected rules (L001, L002, L003, L007, L008 and L010 can fix what
 * they report) until nothing is left to fix. Fixes change only whitespace, keyword case and where
 * a comma sits, never a string, name, number or comment, and each pass is checked: the fixed text
 * must have the same code tokens and comments as before (a pass that would change them is a bug
 * and throws). `noqa` comments and the rule selection apply as in `lintSql`, so a silenced
 * violation is not fixed. Fixing the result again changes nothing.
 *
 * @example
 * fixSql("select id  from users   \n").fixed_sql; // "SELECT id FROM users\n"
 * fixSql("SELECT a\n  , b\nFROM t").fixed_sql; // "SELECT a,\n  b\nFROM t"
 */
export function fixSql(sql: string, options: LintOptions = {}): FixResult {
  const dialect = options.dialect ?? "generic";
  let text = sql;
  let tokens = lintTokens(text, dialect);
  let before: number | undefined;
  for (let pass = 0; ; pass++) {
    const found = lintWithFixes(text, options, dialect === "mysql" ? undefined : tokens);
    before ??= found.length;
    const groups = found.flatMap((v) => (v.fix === undefined ? [] : [v.fix]));
    if (groups.length === 0 || pass === MAX_PASSES) {
      return outcome(sql, text, before, found);
    }
    const next = applyEdits(text, groups);
    const nextTokens = lintTokens(next.text, dialect);
    if (!sameMeaning(tokens, nextTokens)) {
      throw new Error(
        `fixSql: a fix would change the SQL's tokens (rules ${[...new Set(found.filter((v) => v.fix).map((v) => v.violation.rule))].join(", ")}); this is a bug`,
      );
    }
    if (next.text === text) {
      // Every fix was a no-op: report what is left rather than loop.
      return outcome(sql, text, before, found);
    }
    text = next.text;
    tokens = nextTokens;
  }
}

/** The answer once fixing stops: what changed, and the violations left in `text`. */
function outcome(
  sql: string,
  text: string,
  before: number,
  found: readonly { readonly violation: LintViolation }[],
): FixResult {
  const violations = found.map((v) => v.violation);
  return {
    fixed_sql: text,
    changed: text !== sql,
    fixed_count: Math.max(0, before - violations.length),
    remaining: { violation_count: violations.length, violations },
  };
}
