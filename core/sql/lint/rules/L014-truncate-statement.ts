import type { LintRule } from "../lint-rule.js";
import { queryShape, statementVerb } from "../query-shape.js";

/**
 * L014: a TRUNCATE statement, which empties a table at once (and in most databases cannot be
 * rolled back or fires no triggers). No fix.
 *
 * @example
 * truncateStatement.check(createLintContext("TRUNCATE TABLE events"), report); // 1:1
 */
export const truncateStatement: LintRule = {
  code: "L014",
  name: "TruncateStatement",
  severity: "warning",
  category: "safety",
  description:
    "Reports TRUNCATE statements. TRUNCATE removes every row of a table without a WHERE to limit it, skips row triggers, and in MySQL, Oracle and Snowflake commits on its own so it cannot be rolled back. It belongs in reviewed maintenance scripts and test fixtures, where a `-- noqa: L014` records that it is meant.",
  bad: "TRUNCATE TABLE events",
  good: "DELETE FROM events\nWHERE created_at < DATE '2024-01-01'",
  fixable: false,
  check(ctx, report) {
    for (const statement of queryShape(ctx).statements) {
      const verb = statementVerb(statement);
      if (verb?.upper !== "TRUNCATE") continue;
      report({
        line: verb.line,
        column: verb.column,
        message: "TRUNCATE empties the table and may not be rolled back",
        suggestion: "Keep it in reviewed scripts and mark it with -- noqa: L014",
      });
    }
  },
};
