import type { LintRule } from "../lint-rule.js";
import { unlimitedVerbs } from "../query-shape.js";

/** Words that limit which rows an UPDATE touches, besides WHERE (a join, a LIMIT). */
const LIMITS: ReadonlySet<string> = new Set(["WHERE", "JOIN", "LIMIT", "TOP"]);

/**
 * L012: an UPDATE statement with no WHERE clause at its own level, which rewrites every row of
 * the table. No fix: only the author knows which rows were meant.
 *
 * @example
 * updateWithoutWhere.check(createLintContext("UPDATE users SET active = FALSE"), report); // 1:1
 */
export const updateWithoutWhere: LintRule = {
  code: "L012",
  name: "UpdateWithoutWhere",
  severity: "error",
  category: "safety",
  description:
    "Reports an UPDATE statement that has no WHERE clause of its own, so it rewrites every row of its table. Like a DELETE without WHERE, it is usually a slip; a deliberate whole-table update can say so with `WHERE TRUE` or a `-- noqa: L012`. Upserts (`ON CONFLICT DO UPDATE`, `ON DUPLICATE KEY UPDATE`) and `FOR UPDATE` locks are not UPDATE statements and are not reported; an UPDATE limited by a join is not reported either.",
  bad: "UPDATE accounts SET balance = 0",
  good: "UPDATE accounts SET balance = 0\nWHERE id = 42",
  fixable: false,
  check(ctx, report) {
    for (const verb of unlimitedVerbs(ctx, "UPDATE", LIMITS)) {
      report({
        line: verb.line,
        column: verb.column,
        message: "UPDATE without WHERE rewrites every row",
        suggestion: "Add a WHERE clause naming the rows to change",
      });
    }
  },
};
