import { codePointLength } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L001: spaces or tabs at the end of a line. Whitespace inside a multi-line string literal is
 * data and is not reported. Fix: the whitespace is removed.
 *
 * @example
 * trailingWhitespace.check(createLintContext("SELECT id  "), report); // one finding at 1:10
 */
export const trailingWhitespace: LintRule = {
  code: "L001",
  name: "TrailingWhitespace",
  severity: "warning",
  category: "whitespace",
  aliases: ["LT01", "layout.spacing"],
  description:
    "Reports spaces or tabs at the end of a line. Trailing whitespace is invisible, creates noisy diffs and can change the meaning of multi-line string literals when editors strip it; whitespace inside a string literal that spans lines is data and is left alone.",
  bad: "SELECT id   \nFROM users",
  good: "SELECT id\nFROM users",
  fixable: true,
  check(ctx, report) {
    for (const line of ctx.lines) {
      if (line.endsInString) continue;
      const text = line.text;
      let end = text.length;
      while (end > 0) {
        const c = text.charCodeAt(end - 1);
        if (c !== 32 && c !== 9) break;
        end--;
      }
      if (end === text.length) continue;
      report({
        line: line.number,
        column: codePointLength(text.slice(0, end)) + 1,
        message: "Line has trailing whitespace",
        suggestion: "Remove trailing spaces or tabs from the end of the line",
        fix: [{ start: line.start + end, end: line.end, text: "" }],
      });
    }
  },
};
