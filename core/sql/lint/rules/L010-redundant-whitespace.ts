import type { LintRule } from "../lint-rule.js";

/**
 * L010: two or more spaces in a row between tokens. Indentation, strings and comments are not
 * checked. Fix: the run becomes one space.
 *
 * @example
 * redundantWhitespace.check(createLintContext("SELECT id,  name"), report); // 1:11
 */
export const redundantWhitespace: LintRule = {
  code: "L010",
  name: "RedundantWhitespace",
  severity: "info",
  category: "whitespace",
  aliases: ["LT01", "layout.spacing"],
  description:
    "Reports runs of two or more spaces between tokens on a line. One space separates tokens; extra spaces are usually left over from edits and make alignment drift. Leading indentation is the business of the indentation rules, and spaces inside string literals, quoted identifiers and comments are content, so none of them is reported. A run at the end of a line is reported here as well as by TrailingWhitespace.",
  bad: "SELECT id,  name FROM  users",
  good: "SELECT id, name FROM users",
  fixable: true,
  check(ctx, report) {
    let atLineStart = true;
    for (const token of ctx.tokens) {
      if (token.kind === "newline") {
        atLineStart = true;
        continue;
      }
      const leading = atLineStart;
      atLineStart = false;
      if (token.kind !== "whitespace" || leading || token.text.length < 2) continue;
      const text = token.text;
      let run = 0;
      for (let i = 0; i <= text.length; i++) {
        if (i < text.length && text.charCodeAt(i) === 32) {
          run++;
          continue;
        }
        if (run >= 2) {
          report({
            line: token.line,
            column: token.column + i - run,
            message: "Multiple consecutive spaces found",
            suggestion: "Reduce to single space",
            fix: [{ start: token.start + i - run, end: token.start + i, text: " " }],
          });
        }
        run = 0;
      }
    }
  },
};
