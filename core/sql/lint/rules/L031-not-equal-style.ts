import type { LintRule } from "../lint-rule.js";

/**
 * L031 (SQLFluff CV01): `!=` and `<>` mixed in one text. The first one written sets the style.
 * Fix: the other spelling is replaced (both mean "not equal" in every dialect).
 *
 * @example
 * notEqualStyle.check(createLintContext("SELECT 1 WHERE a <> 1 AND b != 2"), report); // 1:29
 */
export const notEqualStyle: LintRule = {
  code: "L031",
  name: "NotEqualStyle",
  severity: "info",
  category: "consistency",
  aliases: ["CV01", "convention.not_equal"],
  description:
    "Reports a not-equal operator spelled differently from the first one in the text: `<>` (the SQL standard's) and `!=` (accepted everywhere too) mean the same, and one spelling per code base makes searching and reviewing easier. The first operator written sets the style; the fix rewrites the others.",
  bad: "SELECT id FROM orders\nWHERE status <> 'open' AND region != 'eu'",
  good: "SELECT id FROM orders\nWHERE status <> 'open' AND region <> 'eu'",
  fixable: true,
  check(ctx, report) {
    let style: string | undefined;
    for (const token of ctx.tokens) {
      if (token.kind !== "operator" || (token.text !== "<>" && token.text !== "!=")) continue;
      style ??= token.text;
      if (token.text === style) continue;
      report({
        line: token.line,
        column: token.column,
        message: `'${token.text}' where this text uses '${style}'`,
        suggestion: `Write ${style}`,
        fix: [{ start: token.start, end: token.end, text: style }],
      });
    }
  },
};
