import type { LintRule } from "../lint-rule.js";
import { isName, nameKey, queryShape } from "../query-shape.js";

/**
 * L021 (SQLFluff ST03): a CTE (`WITH x AS (…)`) that nothing in its statement reads: dead code
 * that the database may still compute. No fix: removing a query is the author's decision.
 *
 * @example
 * unusedCte.check(createLintContext("WITH a AS (SELECT 1) SELECT 2"), report); // 1:6
 */
export const unusedCte: LintRule = {
  code: "L021",
  name: "UnusedCte",
  severity: "warning",
  category: "references",
  aliases: ["ST03", "structure.unused_cte"],
  description:
    "Reports a common table expression that its statement defines after WITH but never reads. An unused CTE is dead code: it misleads readers about where the result comes from, and some databases still evaluate it (PostgreSQL before 12 always did). Remove it, or use it.",
  bad: "WITH recent AS (\n    SELECT id FROM orders WHERE created_at > DATE '2024-01-01'\n)\nSELECT id FROM orders",
  good: "WITH recent AS (\n    SELECT id FROM orders WHERE created_at > DATE '2024-01-01'\n)\nSELECT id FROM recent",
  fixable: false,
  check(ctx, report) {
    for (const statement of queryShape(ctx).statements) {
      for (const cte of statement.ctes) {
        const key = nameKey(cte);
        const used = statement.tokens.some((t) => t !== cte && isName(t) && nameKey(t) === key);
        if (used) continue;
        report({
          line: cte.line,
          column: cte.column,
          message: `CTE '${cte.text}' is never used`,
          suggestion: "Remove it, or read from it",
        });
      }
    }
  },
};
