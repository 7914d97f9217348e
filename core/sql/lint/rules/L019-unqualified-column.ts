import type { LintRule } from "../lint-rule.js";
import { nameKey, queryShape } from "../query-shape.js";

/**
 * L019 (SQLFluff RF02): a column named without its table in a SELECT that reads two or more
 * tables, so the reader (and, after a schema change, the database) must guess where it comes
 * from. No fix: which table holds the column is not in the text.
 *
 * @example
 * unqualifiedColumn.check(createLintContext("SELECT name FROM a INNER JOIN b ON a.id = b.id"), report); // 1:8
 */
export const unqualifiedColumn: LintRule = {
  code: "L019",
  name: "UnqualifiedColumn",
  severity: "warning",
  category: "ambiguity",
  aliases: ["RF02", "references.qualification"],
  description:
    "Reports columns written without a table name or alias in a SELECT that reads more than one table. Such a reference is ambiguous to a reader, and it becomes an error, or silently changes meaning, when a column of the same name is later added to the other table. Qualify every column once a query joins. Names of the select list's own aliases (reused in WHERE or HAVING) are not reported.",
  bad: "SELECT o.id, name\nFROM orders AS o\nINNER JOIN customers AS c ON c.id = o.customer_id",
  good: "SELECT o.id, c.name\nFROM orders AS o\nINNER JOIN customers AS c ON c.id = o.customer_id",
  fixable: false,
  check(ctx, report) {
    for (const scope of queryShape(ctx).scopes) {
      if (scope.tables.length < 2) continue;
      const aliases = new Set(
        scope.items.flatMap((item) => (item.alias === undefined ? [] : [nameKey(item.alias)])),
      );
      for (const ref of scope.refs) {
        const name = ref.parts[0];
        if (ref.parts.length !== 1 || name === undefined) continue;
        if (ref.clause === "group" || ref.clause === "order" || ref.clause === "other") continue;
        if (aliases.has(nameKey(name))) continue;
        report({
          line: name.line,
          column: name.column,
          message: `Column '${name.text}' is not qualified in a query that reads ${scope.tables.length} tables`,
          suggestion: "Prefix it with its table's name or alias",
        });
      }
    }
  },
};
