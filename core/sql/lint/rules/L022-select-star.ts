import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L022 (SQLFluff AM04): `SELECT *` or `SELECT t.*`, whose columns change whenever a table does.
 * Subqueries under EXISTS (whose columns are never read) and `COUNT(*)` are not reported. No fix:
 * the column list is not in the text.
 *
 * @example
 * selectStar.check(createLintContext("SELECT * FROM users"), report); // 1:8
 */
export const selectStar: LintRule = {
  code: "L022",
  name: "SelectStar",
  severity: "warning",
  category: "anti-pattern",
  aliases: ["AM04", "ambiguous.column_count"],
  description:
    "Reports `*` and `table.*` in a select list. The columns such a query returns depend on the table's current definition: adding a column changes every consumer's result, reordering columns breaks positional readers and INSERT … SELECT, and the database reads columns nobody uses. List the columns. A star under EXISTS, whose columns are never read, and `COUNT(*)` are fine.",
  bad: "SELECT * FROM users",
  good: "SELECT id, name FROM users\nWHERE EXISTS (SELECT * FROM orders WHERE orders.user_id = users.id)",
  fixable: false,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      if (scope.opener?.upper === "EXISTS") continue;
      for (const item of scope.items) {
        const t = item.tokens;
        const star =
          t.length === 1 && t[0]?.text === "*"
            ? t[0]
            : t.length === 3 && t[1]?.text === "." && t[2]?.text === "*"
              ? t[2]
              : undefined;
        if (star === undefined) continue;
        report({
          line: star.line,
          column: star.column,
          message: "SELECT * returns whatever columns the table has today",
          suggestion: "List the columns the query needs",
        });
      }
    }
  },
};
