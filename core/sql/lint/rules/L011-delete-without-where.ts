import type { LintRule } from "../lint-rule.js";
import { unlimitedVerbs } from "../query-shape.js";

/** Words that limit which rows a DELETE touches, besides WHERE (`USING`, a join). */
const LIMITS: ReadonlySet<string> = new Set(["WHERE", "USING", "JOIN", "LIMIT", "TOP"]);

/**
 * L011: a DELETE statement with no WHERE clause (at its own level; a WHERE inside a subquery
 * does not count), which removes every row of the table. No fix: only the author knows which
 * rows were meant.
 *
 * @example
 * deleteWithoutWhere.check(createLintContext("DELETE FROM users"), report); // 1:1
 */
export const deleteWithoutWhere: LintRule = {
  code: "L011",
  name: "DeleteWithoutWhere",
  severity: "error",
  category: "safety",
  description:
    "Reports a DELETE statement that has no WHERE clause of its own, so it removes every row of its table. A missing WHERE is the classic slip of an edited query or a half-selected line run by hand; when emptying the table is the intent, TRUNCATE says so (and is reported by TruncateStatement), or a `-- noqa: L011` records the decision. A DELETE limited by USING or a join, and `WHERE CURRENT OF` a cursor, are not reported.",
  bad: "DELETE FROM sessions",
  good: "DELETE FROM sessions\nWHERE expires_at < CURRENT_TIMESTAMP",
  fixable: false,
  check(ctx, report) {
    for (const verb of unlimitedVerbs(ctx, "DELETE", LIMITS)) {
      report({
        line: verb.line,
        column: verb.column,
        message: "DELETE without WHERE removes every row",
        suggestion: "Add a WHERE clause, or use TRUNCATE if emptying the table is intended",
      });
    }
  },
};
