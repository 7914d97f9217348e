import type { SqlSyntaxError } from "../ports/sql-parser.js";
import type { SqlDialect } from "./dialects.js";
import type { Token } from "./token.js";

/**
 * Keywords after which an operand must come. AND and OR are reserved in every dialect, so one of
 * them here is a missing condition (`WHERE AND`), never a name; the multi-dialect parser would
 * read it as a column called `AND`.
 */
const OPERAND_EXPECTED: ReadonlySet<string> = new Set([
  "SELECT", "WHERE", "HAVING", "ON", "WHEN", "THEN", "ELSE", "AND", "OR", "NOT", "IS", "IN", "LIKE",
  "BETWEEN", "BY", "DISTINCT", "SET", "VALUES", "CASE", "RETURN",
]); // prettier-ignore
/** Keywords after which the operand is a condition (for the message). */
const CONDITION_START: ReadonlySet<string> = new Set([
  "WHERE", "HAVING", "ON", "WHEN", "AND", "OR", "NOT",
]); // prettier-ignore
/** SQLite allows an empty list on the right of IN (`x IN ()` is false); no other dialect does. */
const EMPTY_IN_LIST: readonly SqlDialect[] = ["sqlite"];

/**
 * The first place in the significant tokens `sig` where an operand is missing: `AND`/`OR` where an
 * expression should start (`WHERE AND`, `WHERE OR`, `ON AND`, `(OR`, `= AND`), or an empty
 * `IN ()` list outside SQLite. PostgreSQL's parser rejects these itself; the multi-dialect parser
 * accepts them in six dialects (issue 8), so the routing parser checks them first.
 *
 * @example
 * findMissingOperand(significant(tokenize("SELECT id FROM users WHERE AND")), "mysql");
 * // { line: 1, column: 28, reason: "unexpected AND, expected a condition" }
 * findMissingOperand(significant(tokenize("SELECT 1 WHERE x IN ()")), "oracle");
 * // { line: 1, column: 21, reason: 'unexpected ")", IN needs at least one value' }
 */
export function findMissingOperand(
  sig: readonly Token[],
  dialect: SqlDialect,
): SqlSyntaxError | undefined {
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i] as Token;
    if (t.kind !== "keyword") continue;
    if ((t.upper === "AND" || t.upper === "OR") && expectsOperand(sig[i - 1])) {
      const expected = CONDITION_START.has(sig[i - 1]?.upper ?? "")
        ? "a condition"
        : "an expression";
      return {
        line: t.line,
        column: t.column,
        reason: `unexpected ${t.text}, expected ${expected}`,
      };
    }
    if (
      t.upper === "IN" &&
      sig[i + 1]?.text === "(" &&
      sig[i + 2]?.text === ")" &&
      !EMPTY_IN_LIST.includes(dialect)
    ) {
      const close = sig[i + 2] as Token;
      return {
        line: close.line,
        column: close.column,
        reason: 'unexpected ")", IN needs at least one value',
      };
    }
  }
  return undefined;
}

/** True when the token before a word is one after which an expression must start. */
function expectsOperand(before: Token | undefined): boolean {
  if (before === undefined) return true;
  switch (before.kind) {
    case "keyword":
      return OPERAND_EXPECTED.has(before.upper);
    case "operator":
      return true;
    case "punctuation":
      return before.text === "(" || before.text === "," || before.text === ";";
    default:
      return false;
  }
}
