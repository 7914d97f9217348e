import type { Token } from "../../token.js";
import type { LintRule } from "../lint-rule.js";
import { isName, nameKey, queryShape } from "../query-shape.js";

/** Row names some statements define without a FROM: upserts, triggers, T-SQL OUTPUT. */
const PSEUDO_TABLES: ReadonlySet<string> = new Set([
  "EXCLUDED",
  "NEW",
  "OLD",
  "INSERTED",
  "DELETED",
]);

/**
 * L020 (SQLFluff RF01): a qualified column (`x.id`) whose qualifier names no table, alias or CTE
 * of its statement: a typo, or a leftover from a renamed alias, which the database rejects. No
 * fix.
 *
 * @example
 * unknownQualifier.check(createLintContext("SELECT x.id FROM users AS u"), report); // 1:8
 */
export const unknownQualifier: LintRule = {
  code: "L020",
  name: "UnknownQualifier",
  severity: "error",
  category: "references",
  aliases: ["RF01", "references.from"],
  description:
    "Reports a qualified column reference whose qualifier is not a table, alias or CTE of its statement, such as `x.id` in a query that only reads `users AS u`. It is almost always a typo or an alias renamed in one place only, and the database will reject the query when it runs. Correlated subqueries may use the names of the statement around them; the row names of upserts and triggers (`EXCLUDED`, `NEW`, `OLD`, `INSERTED`, `DELETED`) are known. Struct fields written like qualified columns (`payload.id` in BigQuery) are reported too: silence them with noqa.",
  bad: "SELECT usr.id, u.name\nFROM users AS u",
  good: "SELECT u.id, u.name\nFROM users AS u",
  fixable: false,
  check(ctx, report) {
    const shape = queryShape(ctx);
    const known = shape.statements.map((statement) => {
      const names = new Set(PSEUDO_TABLES);
      const code = statement.tokens;
      for (let i = 0; i < code.length; i++) {
        const t = code[i] as Token;
        // A name that is not followed by a dot is a table, alias, CTE or column name.
        if (isName(t) && code[i + 1]?.text !== ".") names.add(nameKey(t));
      }
      return names;
    });
    for (const scope of shape.scopes) {
      const names = known[scope.statement];
      if (names === undefined) continue;
      for (const ref of scope.refs) {
        if (ref.parts.length < 2) continue;
        const qualifier = ref.parts[ref.parts.length - 2] as Token;
        if (names.has(nameKey(qualifier))) continue;
        report({
          line: qualifier.line,
          column: qualifier.column,
          message: `'${qualifier.text}' is not a table, alias or CTE of this statement`,
          suggestion: "Use the alias the table was given in FROM",
        });
      }
    }
  },
};
