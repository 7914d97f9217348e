import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L015 (SQLFluff AM01): SELECT DISTINCT together with GROUP BY in the same SELECT; the grouping
 * already makes the rows distinct. No fix: which of the two was meant is the author's call.
 *
 * @example
 * distinctWithGroupBy.check(createLintContext("SELECT DISTINCT a FROM t GROUP BY a"), report); // 1:8
 */
export const distinctWithGroupBy: LintRule = {
  code: "L015",
  name: "DistinctWithGroupBy",
  severity: "warning",
  category: "ambiguity",
  aliases: ["AM01", "ambiguous.distinct"],
  description:
    "Reports a SELECT that uses DISTINCT and GROUP BY at once. GROUP BY already returns one row per group, so DISTINCT either does nothing or hides a grouping that is not what the author thinks it is (a select list with more columns than the GROUP BY). Keep one of the two. Subqueries are judged on their own.",
  bad: "SELECT DISTINCT customer_id\nFROM orders\nGROUP BY customer_id",
  good: "SELECT customer_id\nFROM orders\nGROUP BY customer_id",
  fixable: false,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      const distinct = scope.items[0]?.tokens[0];
      if (distinct?.upper !== "DISTINCT" || distinct.kind !== "keyword") continue;
      if (!scope.keywords.some((k) => k.upper === "GROUP")) continue;
      report({
        line: distinct.line,
        column: distinct.column,
        message: "DISTINCT is redundant with GROUP BY",
        suggestion: "Remove DISTINCT, or the GROUP BY if distinct rows were meant",
      });
    }
  },
};
