import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L036 (SQLFluff ST12): a `;` that ends an empty statement (`;;`, or a `;` before any SQL). Fix:
 * the extra `;` is removed.
 *
 * @example
 * consecutiveSemicolons.check(createLintContext("SELECT 1;;"), report); // 1:10
 */
export const consecutiveSemicolons: LintRule = {
  code: "L036",
  name: "ConsecutiveSemicolons",
  severity: "info",
  category: "consistency",
  aliases: ["ST12", "structure.consecutive_semicolons"],
  description:
    "Reports a semicolon that ends an empty statement: `;;`, or a semicolon before the first statement. Empty statements do nothing, some drivers and migration tools reject them, and they are usually a copy-and-paste leftover. The fix removes the extra semicolon.",
  bad: "SELECT 1;;",
  good: "SELECT 1;",
  fixable: true,
  check(ctx, report) {
    let previous: string | undefined = ";";
    for (const token of ctx.tokens) {
      if (!isSignificant(token)) continue;
      if (token.text === ";" && previous === ";") {
        report({
          line: token.line,
          column: token.column,
          message: "Empty statement: extra semicolon",
          suggestion: "Remove the semicolon",
          fix: [{ start: token.start, end: token.end, text: "" }],
        });
      }
      previous = token.text;
    }
  },
};
