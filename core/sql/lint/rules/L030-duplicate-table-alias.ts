import type { LintRule } from "../lint-rule.js";
import { nameKey, queryShape } from "../query-shape.js";

/**
 * L030 (SQLFluff AL04): two items of one FROM clause with the same alias, or the same table
 * twice without aliases: every column reference to that name is ambiguous, and most databases
 * reject the query. No fix.
 *
 * @example
 * duplicateTableAlias.check(createLintContext("SELECT 1 FROM a AS x INNER JOIN b AS x ON TRUE"), report); // 1:38
 */
export const duplicateTableAlias: LintRule = {
  code: "L030",
  name: "DuplicateTableAlias",
  severity: "error",
  category: "aliasing",
  aliases: ["AL04", "aliasing.unique.table"],
  description:
    "Reports a FROM clause in which two tables go by the same name: the same alias given twice, or one table joined to itself without aliases. Every reference to that name is then ambiguous and most databases refuse the query; give each occurrence its own alias. Names are compared as the database compares them (unquoted names case-insensitively).",
  bad: "SELECT e.name, e.title\nFROM employees AS e\nINNER JOIN employees AS e ON e.id = e.manager_id",
  good: "SELECT e.name, m.name AS manager\nFROM employees AS e\nINNER JOIN employees AS m ON m.id = e.manager_id",
  fixable: false,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      const seen = new Set<string>();
      for (const table of scope.tables) {
        const name = table.alias ?? (table.derived ? undefined : table.name[table.name.length - 1]);
        if (name === undefined) continue;
        const key = nameKey(name);
        if (!seen.has(key)) {
          seen.add(key);
          continue;
        }
        report({
          line: name.line,
          column: name.column,
          message: `'${name.text}' names two tables in one FROM clause`,
          suggestion: "Give each occurrence its own alias",
        });
      }
    }
  },
};
