import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L023: `NOT IN (SELECT …)`, which returns no row at all as soon as the subquery yields one
 * NULL. No fix: NOT EXISTS is the safe form, but rewriting the condition is the author's job.
 *
 * @example
 * notInSubquery.check(createLintContext("SELECT id FROM a WHERE id NOT IN (SELECT a_id FROM b)"), report); // 1:27
 */
export const notInSubquery: LintRule = {
  code: "L023",
  name: "NotInSubquery",
  severity: "warning",
  category: "anti-pattern",
  description:
    "Reports `NOT IN` over a subquery. When the subquery returns a NULL, `x NOT IN (…)` is never true, so the query silently returns nothing; unless the column is declared NOT NULL (which the text does not show), this is a bug waiting for its first NULL. `NOT EXISTS (SELECT … WHERE …)` means what was intended and usually plans as well or better. NOT IN over a list of literals is fine.",
  bad: "SELECT id FROM users\nWHERE id NOT IN (SELECT user_id FROM banned)",
  good: "SELECT id FROM users\nWHERE NOT EXISTS (SELECT 1 FROM banned WHERE banned.user_id = users.id)",
  fixable: false,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    for (let i = 0; i + 3 < code.length; i++) {
      const not = code[i] as Token;
      if (not.upper !== "NOT" || not.kind !== "keyword" || code[i + 1]?.upper !== "IN") continue;
      if (code[i + 2]?.text !== "(") continue;
      const first = code[i + 3]?.upper;
      if (first !== "SELECT" && first !== "WITH") continue;
      report({
        line: not.line,
        column: not.column,
        message: "NOT IN over a subquery matches nothing once the subquery returns a NULL",
        suggestion: "Use NOT EXISTS with a correlated condition",
      });
    }
  },
};
