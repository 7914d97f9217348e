import type { LintRule } from "../lint-rule.js";
import { queryShape, statementVerb } from "../query-shape.js";

/**
 * L013: a DROP statement (`DROP TABLE`, `DROP VIEW`, …) or an `ALTER TABLE … DROP COLUMN`, which
 * destroy objects or data that no later statement can bring back. No fix.
 *
 * @example
 * dropStatement.check(createLintContext("DROP TABLE users"), report); // 1:1
 */
export const dropStatement: LintRule = {
  code: "L013",
  name: "DropStatement",
  severity: "warning",
  category: "safety",
  description:
    "Reports DROP statements and `ALTER TABLE … DROP COLUMN`. Dropping a table or a column destroys its data, and dropping a view, index or function breaks whatever depends on it; in a migration or a script run against production that should be a reviewed decision, not a line that slipped in. Mark deliberate drops with `-- noqa: L013`, or leave the rule out for folders of down-migrations.",
  bad: "DROP TABLE users",
  good: "ALTER TABLE users ADD COLUMN nickname TEXT",
  fixable: false,
  check(ctx, report) {
    for (const statement of queryShape(ctx).statements) {
      const verb = statementVerb(statement);
      if (verb === undefined || verb.kind !== "keyword") continue;
      if (verb.upper === "DROP") {
        const what = statement.top[1];
        const object = what === undefined ? "DROP" : `DROP ${what.text.toUpperCase()}`;
        report({
          line: verb.line,
          column: verb.column,
          message: `${object} destroys the object and what depends on it`,
          suggestion: "Keep drops in reviewed migrations and mark them with -- noqa: L013",
        });
      } else if (verb.upper === "ALTER") {
        const top = statement.top;
        for (let i = 0; i < top.length - 1; i++) {
          const t = top[i];
          if (t?.upper === "DROP" && t.kind === "keyword" && top[i + 1]?.upper === "COLUMN") {
            report({
              line: t.line,
              column: t.column,
              message: "DROP COLUMN destroys the column's data",
              suggestion: "Keep drops in reviewed migrations and mark them with -- noqa: L013",
            });
          }
        }
      }
    }
  },
};
