import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L033 (SQLFluff CV03): a comma after the last item of a select list (`SELECT a, b, FROM t`),
 * a syntax error in most dialects. Fix: the comma is removed.
 *
 * @example
 * trailingSelectComma.check(createLintContext("SELECT a, b, FROM t"), report); // 1:12
 */
export const trailingSelectComma: LintRule = {
  code: "L033",
  name: "TrailingSelectComma",
  severity: "error",
  category: "consistency",
  aliases: ["CV03", "convention.select_trailing_comma"],
  description:
    "Reports a comma after the last item of a select list, right before FROM. BigQuery and Snowflake accept it, every other dialect rejects the statement; it is usually left behind when the last column was deleted. The fix removes the comma.",
  bad: "SELECT\n    id,\n    name,\nFROM users",
  good: "SELECT\n    id,\n    name\nFROM users",
  fixable: true,
  check(ctx, report) {
    let comma: Token | undefined;
    for (const token of ctx.tokens) {
      if (!isSignificant(token)) continue;
      if (comma !== undefined && token.kind === "keyword" && token.upper === "FROM") {
        report({
          line: comma.line,
          column: comma.column,
          message: "Comma after the last select item",
          suggestion: "Remove the comma",
          fix: [{ start: comma.start, end: comma.end, text: "" }],
        });
      }
      comma = token.text === "," && token.kind === "punctuation" ? token : undefined;
    }
  },
};
