import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

const LIKE_WORDS: ReadonlySet<string> = new Set(["LIKE", "ILIKE"]);

/**
 * L024: a LIKE pattern that starts with `%` (or `_`), which no ordinary index can serve: every
 * row is read and matched. No fix.
 *
 * @example
 * leadingWildcardLike.check(createLintContext("SELECT id FROM t WHERE name LIKE '%son'"), report); // 1:34
 */
export const leadingWildcardLike: LintRule = {
  code: "L024",
  name: "LeadingWildcardLike",
  severity: "info",
  category: "anti-pattern",
  description:
    "Reports LIKE and ILIKE patterns that begin with a wildcard (`'%son'`, `'_x%'`). A B-tree index orders values by their first characters, so a pattern without a fixed prefix cannot use one and the database scans and tests every row. On large tables use a trigram or full-text index, a reversed-string column, or a prefix search; on small ones, silence it with noqa.",
  bad: "SELECT id FROM users\nWHERE email LIKE '%@example.com'",
  good: "SELECT id FROM users\nWHERE email LIKE 'admin@%'",
  fixable: false,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    for (let i = 0; i + 1 < code.length; i++) {
      const like = code[i] as Token;
      if (like.kind !== "keyword" || !LIKE_WORDS.has(like.upper)) continue;
      const pattern = code[i + 1] as Token;
      if (pattern.kind !== "string") continue;
      const quote = pattern.text.indexOf("'");
      const first = quote < 0 ? undefined : pattern.text[quote + 1];
      if (first !== "%" && first !== "_") continue;
      report({
        line: pattern.line,
        column: pattern.column,
        message: "LIKE pattern starts with a wildcard, so no index can be used",
        suggestion: "Anchor the pattern, or use a trigram or full-text index",
      });
    }
  },
};
