import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";
import type { Token } from "../../token.js";

/** Words that may stand before JOIN and say (or qualify) what kind of join it is. */
const JOIN_KINDS: ReadonlySet<string> = new Set([
  "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ASOF", "ANTI", "SEMI",
  "POSITIONAL", "ARRAY", "ANY", "ALL", "GLOBAL", "HASH", "MERGE", "LOOP", "REMOTE", "LATERAL",
  "STRAIGHT_JOIN", "DIRECTED",
  // Not joins: MySQL's index hint `USE INDEX FOR JOIN (i)`.
  "FOR",
]); // prettier-ignore

/**
 * L017 (SQLFluff AM05): a bare `JOIN`, which every dialect reads as `INNER JOIN`. Fix: `INNER`
 * is written before it (same meaning, said out loud).
 *
 * @example
 * implicitJoinType.check(createLintContext("SELECT 1 FROM a JOIN b ON a.id = b.id"), report); // 1:17
 */
export const implicitJoinType: LintRule = {
  code: "L017",
  name: "ImplicitJoinType",
  severity: "info",
  category: "ambiguity",
  aliases: ["AM05", "ambiguous.join"],
  description:
    "Reports a JOIN written without its type. A bare JOIN is an inner join, which drops the rows without a match; readers coming from other tools sometimes take it for a left join, and a reviewer cannot tell whether the author chose it. Writing INNER JOIN states the choice; the fix adds the word and changes nothing else.",
  bad: "SELECT o.id, c.name\nFROM orders AS o\nJOIN customers AS c ON c.id = o.customer_id",
  good: "SELECT o.id, c.name\nFROM orders AS o\nINNER JOIN customers AS c ON c.id = o.customer_id",
  fixable: true,
  check(ctx, report) {
    let previous: string | undefined;
    const tokens = ctx.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      if (!isSignificant(token)) continue;
      if (
        token.kind === "keyword" &&
        token.upper === "JOIN" &&
        !JOIN_KINDS.has(previous ?? "") &&
        // `JOIN = area_join_function`: an option named JOIN (PostgreSQL's CREATE OPERATOR).
        nextSignificant(tokens, i)?.text !== "="
      ) {
        // In the case the JOIN is written in, so the fix needs no keyword-case fix after it.
        const inner = token.text === token.text.toLowerCase() ? "inner" : "INNER";
        report({
          line: token.line,
          column: token.column,
          message: "JOIN without a type is an INNER JOIN",
          suggestion: `Write ${inner} ${token.text}`,
          fix: [{ start: token.start, end: token.start, text: `${inner} ` }],
        });
      }
      previous = token.upper;
    }
  },
};

function nextSignificant(tokens: readonly Token[], i: number): Token | undefined {
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (isSignificant(t)) return t;
  }
  return undefined;
}
