import type { Token } from "../../token.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L037 (SQLFluff ST01): `ELSE NULL` in a CASE expression, which is what a CASE without ELSE
 * returns anyway. Fix: `ELSE NULL` and the layout before it are removed (when no comment sits in
 * between).
 *
 * @example
 * elseNull.check(createLintContext("SELECT CASE WHEN a THEN 1 ELSE NULL END"), report); // 1:27
 */
export const elseNull: LintRule = {
  code: "L037",
  name: "ElseNull",
  severity: "info",
  category: "anti-pattern",
  aliases: ["ST01", "structure.else_null"],
  description:
    "Reports `ELSE NULL` at the end of a CASE expression. A CASE with no matching branch and no ELSE already yields NULL, so the branch adds words without adding meaning. The fix removes it.",
  bad: "SELECT CASE WHEN paid THEN 'paid' ELSE NULL END AS status\nFROM orders",
  good: "SELECT CASE WHEN paid THEN 'paid' END AS status\nFROM orders",
  fixable: true,
  check(ctx, report) {
    const tokens = ctx.tokens;
    // Index of each significant token, and the layout-only span before it.
    let lastCode = -1;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      if (t.kind !== "keyword" || t.upper !== "ELSE") {
        if (isCode(t)) lastCode = i;
        continue;
      }
      const nullAt = nextCode(tokens, i + 1);
      const endAt = nextCode(tokens, nullAt + 1);
      const nul = tokens[nullAt];
      if (nul?.upper !== "NULL" || tokens[endAt]?.upper !== "END") {
        lastCode = i;
        continue;
      }
      const before = tokens[lastCode];
      const layoutOnly = (from: number, to: number) =>
        tokens.slice(from, to).every((x) => x.kind === "whitespace" || x.kind === "newline");
      const clean =
        before !== undefined && layoutOnly(lastCode + 1, i) && layoutOnly(i + 1, nullAt);
      report({
        line: t.line,
        column: t.column,
        message: "ELSE NULL is redundant: CASE yields NULL without it",
        suggestion: "Remove ELSE NULL",
        ...(clean ? { fix: [{ start: before.end, end: nul.end, text: "" }] } : {}),
      });
      lastCode = nullAt;
      i = nullAt;
    }
  },
};

function isCode(t: Token): boolean {
  return t.kind !== "whitespace" && t.kind !== "newline";
}

/** Index of the next token at or after `from` that is not layout (comments count as code here). */
function nextCode(tokens: readonly Token[], from: number): number {
  let j = from;
  while (j < tokens.length && !isCode(tokens[j] as Token)) j++;
  return j;
}
