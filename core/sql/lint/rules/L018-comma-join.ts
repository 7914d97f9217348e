import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L018 (SQLFluff CV12): tables joined with a comma in FROM (`FROM a, b WHERE a.id = b.a_id`), an
 * implicit join whose condition hides in WHERE (and a cross join when it is forgotten). No fix:
 * moving conditions from WHERE into ON is not safe to do blindly.
 *
 * @example
 * commaJoin.check(createLintContext("SELECT 1 FROM a, b"), report); // 1:16
 */
export const commaJoin: LintRule = {
  code: "L018",
  name: "CommaJoin",
  severity: "warning",
  category: "ambiguity",
  aliases: ["CV12", "convention.join_condition"],
  description:
    "Reports FROM clauses that join tables with a comma. The join condition of such an implicit join sits in WHERE among the filters, where it is easy to miss and, when forgotten, silently turns the query into a cross join of every row with every row. An explicit `JOIN … ON` keeps each condition beside its table; `CROSS JOIN` says when the product is meant.",
  bad: "SELECT o.id, c.name\nFROM orders AS o, customers AS c\nWHERE c.id = o.customer_id",
  good: "SELECT o.id, c.name\nFROM orders AS o\nINNER JOIN customers AS c ON c.id = o.customer_id",
  fixable: false,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      for (const comma of scope.fromCommas) {
        report({
          line: comma.line,
          column: comma.column,
          message: "Implicit join: tables joined with a comma",
          suggestion: "Use JOIN … ON, or CROSS JOIN if every pair of rows is meant",
        });
      }
    }
  },
};
