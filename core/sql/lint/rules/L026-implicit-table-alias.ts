import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L026 (SQLFluff AL01): a table alias written without AS (`FROM users u`). Fix: `AS` is inserted
 * before the alias, in the case the FROM's SELECT is written in. Oracle does not accept AS before
 * a table alias, so the rule is silent in the `oracle` dialect.
 *
 * @example
 * implicitTableAlias.check(createLintContext("SELECT u.id FROM users u"), report); // 1:24
 */
export const implicitTableAlias: LintRule = {
  code: "L026",
  name: "ImplicitTableAlias",
  severity: "info",
  category: "aliasing",
  aliases: ["AL01", "aliasing.table"],
  description:
    "Reports table aliases written without AS, such as `FROM users u`. With AS, an alias cannot be mistaken for a second table after a missing comma or for a dialect keyword, and a search for `AS u` finds where it is defined. This is the table half of AliasingConsistency's `require_table_as`, as its own rule with a fix. Oracle rejects AS before a table alias, so nothing is reported in the oracle dialect.",
  bad: "SELECT u.id\nFROM users u",
  good: "SELECT u.id\nFROM users AS u",
  fixable: true,
  check(ctx, report) {
    if (ctx.dialect === "oracle") return;
    for (const scope of queryShape(ctx).scopes) {
      const as = scope.select.text === scope.select.text.toLowerCase() ? "as" : "AS";
      for (const table of scope.tables) {
        const alias = table.alias;
        if (alias === undefined || table.as !== undefined) continue;
        report({
          line: alias.line,
          column: alias.column,
          message: `Table alias '${alias.text}' has no AS`,
          suggestion: `Write ${as} ${alias.text}`,
          fix: [{ start: alias.start, end: alias.start, text: `${as} ` }],
        });
      }
    }
  },
};
