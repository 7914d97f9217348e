import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L027 (SQLFluff AL02): a select-list alias written without AS (`SELECT total amount`). Fix: `AS`
 * is inserted before the alias.
 *
 * @example
 * implicitColumnAlias.check(createLintContext("SELECT COUNT(*) n FROM t"), report); // 1:17
 */
export const implicitColumnAlias: LintRule = {
  code: "L027",
  name: "ImplicitColumnAlias",
  severity: "warning",
  category: "aliasing",
  aliases: ["AL02", "aliasing.column"],
  description:
    "Reports select-list aliases written without AS, such as `SELECT total amount`. Without AS an alias is indistinguishable from a missing comma: `SELECT a b` silently returns one column named b instead of two. AliasingConsistency reports the same items among its seed checks; this rule carries SQLFluff's code and a fix that inserts AS.",
  bad: "SELECT COUNT(*) order_count\nFROM orders",
  good: "SELECT COUNT(*) AS order_count\nFROM orders",
  fixable: true,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      const as = scope.select.text === scope.select.text.toLowerCase() ? "as" : "AS";
      for (const item of scope.items) {
        const alias = item.alias;
        if (alias === undefined || item.as !== undefined) continue;
        report({
          line: alias.line,
          column: alias.column,
          message: `Column alias '${alias.text}' has no AS`,
          suggestion: `Write ${as} ${alias.text}`,
          fix: [{ start: alias.start, end: alias.start, text: `${as} ` }],
        });
      }
    }
  },
};
