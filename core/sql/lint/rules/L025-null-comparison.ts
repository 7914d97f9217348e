import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

const COMPARISONS: ReadonlySet<string> = new Set(["=", "<>", "!="]);
/** Words that end a SET list (after which `=` compares again). */
const SET_END: ReadonlySet<string> = new Set([
  "WHERE",
  "FROM",
  "RETURNING",
  "OUTPUT",
  "WHEN",
  "ON",
]);

/**
 * L025 (SQLFluff CV05): `= NULL`, `<> NULL` or `!= NULL`, which are never true (the comparison
 * is unknown). An assignment in `SET a = NULL` is not a comparison and is not reported. No fix:
 * `IS NULL` changes what the query returns, which is the point but must be the author's choice.
 *
 * @example
 * nullComparison.check(createLintContext("SELECT id FROM t WHERE a = NULL"), report); // 1:26
 */
export const nullComparison: LintRule = {
  code: "L025",
  name: "NullComparison",
  severity: "error",
  category: "anti-pattern",
  aliases: ["CV05", "convention.is_null"],
  description:
    "Reports comparisons with NULL by `=`, `<>` or `!=`. Any comparison with NULL is unknown, never true, so `WHERE deleted_at = NULL` matches no row and `WHERE deleted_at <> NULL` matches none either. Write `IS NULL` or `IS NOT NULL`. The rule offers no automatic fix because the fix changes the query's result (that is the bug being fixed). Assignments such as `SET a = NULL` are not comparisons and are not reported.",
  bad: "SELECT id FROM users\nWHERE deleted_at = NULL",
  good: "UPDATE users SET deleted_at = NULL\nWHERE id = 7",
  fixable: false,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    // Per parenthesis depth: whether the tokens sit in a SET list.
    const inSet: boolean[] = [false];
    for (let i = 0; i < code.length; i++) {
      const t = code[i] as Token;
      if (t.text === "(") inSet.push(false);
      else if (t.text === ")") {
        if (inSet.length > 1) inSet.pop();
      } else if (t.text === ";") inSet[inSet.length - 1] = false;
      else if (t.kind === "keyword" && t.upper === "SET") inSet[inSet.length - 1] = true;
      else if (t.kind === "keyword" && SET_END.has(t.upper)) inSet[inSet.length - 1] = false;
      if (t.kind !== "operator" || !COMPARISONS.has(t.text)) continue;
      if (t.text === "=" && inSet[inSet.length - 1] === true) continue;
      const before = code[i - 1];
      const after = code[i + 1];
      const isNull = (x: Token | undefined) => x?.kind === "keyword" && x.upper === "NULL";
      if (!isNull(after) && !isNull(before)) continue;
      if (t.text === "=" && before?.kind === "parameter") continue; // T-SQL `SELECT @x = NULL`
      const negated = t.text !== "=";
      report({
        line: t.line,
        column: t.column,
        message: `'${t.text} NULL' is never true`,
        suggestion: `Use IS ${negated ? "NOT " : ""}NULL`,
      });
    }
  },
};
