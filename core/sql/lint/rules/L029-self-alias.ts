import type { Token } from "../../token.js";
import type { LintRule } from "../lint-rule.js";
import { queryShape } from "../query-shape.js";

/**
 * L029 (SQLFluff AL09): a column aliased to its own name (`SELECT id AS id`, `u.name AS name`).
 * Fix: the alias is removed; the result column keeps the same name.
 *
 * @example
 * selfAlias.check(createLintContext("SELECT id AS id FROM t"), report); // 1:14
 */
export const selfAlias: LintRule = {
  code: "L029",
  name: "SelfAlias",
  severity: "info",
  category: "aliasing",
  aliases: ["AL09", "aliasing.self_alias.column"],
  description:
    'Reports a select-list column aliased to the name it already has, such as `SELECT id AS id` or `SELECT u.name AS name`. The result column is named after the column anyway, so the alias only adds words; it is usually left over from a rename. The fix removes it. A quoted alias that differs in case from an unquoted column (`id AS "ID"`) renames the column and is not reported.',
  bad: "SELECT u.id AS id, u.name\nFROM users AS u",
  good: "SELECT u.id, u.name\nFROM users AS u",
  fixable: true,
  check(ctx, report) {
    const shape = queryShape(ctx);
    const code = shape.statements.flatMap((s) => s.tokens);
    const next = new Map<Token, Token | undefined>();
    for (let i = 0; i < code.length; i++) next.set(code[i] as Token, code[i + 1]);
    for (const scope of shape.scopes) {
      for (const item of scope.items) {
        const alias = item.alias;
        const t = item.tokens;
        if (alias === undefined) continue;
        const end = item.as === undefined ? t.length - 1 : t.length - 2;
        const column = t[end - 1];
        const simple = end === 1 || (end === 3 && t[1]?.text === ".");
        if (!simple || column === undefined || !sameName(column, alias)) continue;
        // Fixed only where the canonical comparison sees the alias end the item.
        const after = next.get(alias);
        const ends =
          after === undefined ||
          after.text === "," ||
          after.text === ")" ||
          after.text === ";" ||
          after.upper === "FROM";
        report({
          line: alias.line,
          column: alias.column,
          message: `Column '${column.text}' is aliased to its own name`,
          suggestion: "Remove the alias",
          ...(ends ? { fix: [{ start: column.end, end: alias.end, text: "" }] } : {}),
        });
      }
    }
  },
};

function sameName(a: Token, b: Token): boolean {
  if (a.kind === "identifier" && b.kind === "identifier") return a.upper === b.upper;
  return a.kind === "quoted_identifier" && b.kind === "quoted_identifier" && a.text === b.text;
}
