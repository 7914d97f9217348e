import type { Token } from "../../token.js";
import type { LintRule } from "../lint-rule.js";
import { isName, nameKey, queryShape } from "../query-shape.js";

/**
 * L028 (SQLFluff AL05): a table alias that nothing in its statement uses as a qualifier
 * (`FROM users AS u` with no `u.`). Aliases of subqueries and table functions, which many
 * dialects require, are not reported. No fix.
 *
 * @example
 * unusedTableAlias.check(createLintContext("SELECT id FROM users AS u"), report); // 1:25
 */
export const unusedTableAlias: LintRule = {
  code: "L028",
  name: "UnusedTableAlias",
  severity: "warning",
  category: "aliasing",
  aliases: ["AL05", "aliasing.unused"],
  description:
    "Reports a table alias that its statement never uses. An alias nobody refers to is noise at best; at worst it shows that a column meant to be qualified with it was not, or that a join is left over from an earlier version of the query. Use the alias or drop it. Aliases of subqueries and table functions are not reported (most dialects require them), and T-SQL's `UPDATE u … FROM users AS u` counts as a use.",
  bad: "SELECT id, name\nFROM users AS u",
  good: "SELECT u.id, u.name\nFROM users AS u",
  fixable: false,
  check(ctx, report) {
    const shape = queryShape(ctx);
    const used = shape.statements.map((statement) => {
      const names = new Set<string>();
      const code = statement.tokens;
      for (let i = 0; i < code.length; i++) {
        const t = code[i] as Token;
        if (!isName(t)) continue;
        const before = code[i - 1]?.upper;
        if (code[i + 1]?.text === "." || before === "UPDATE" || before === "DELETE")
          names.add(nameKey(t));
      }
      return names;
    });
    for (const scope of shape.scopes) {
      const names = used[scope.statement];
      for (const table of scope.tables) {
        const alias = table.alias;
        if (alias === undefined || table.derived || names === undefined) continue;
        if (names.has(nameKey(alias))) continue;
        report({
          line: alias.line,
          column: alias.column,
          message: `Table alias '${alias.text}' is never used`,
          suggestion: `Qualify columns with ${alias.text}, or remove the alias`,
        });
      }
    }
  },
};
