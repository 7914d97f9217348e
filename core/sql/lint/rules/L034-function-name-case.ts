import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/** Words before `name (` that make the name a table, index or CTE rather than a function. */
const NOT_A_CALL: ReadonlySet<string> = new Set([
  "INTO", "TABLE", "REFERENCES", "ON", "INDEX", "VIEW", "EXISTS", "KEY", "WITH", "RECURSIVE",
  "TYPE", "FUNCTION", "PROCEDURE", "TRIGGER", "UPDATE", "JOIN", "FROM", "USING", "CONSTRAINT",
]); // prettier-ignore
/** Type names written like calls (`VARCHAR(20)`): CP05's business, not CP03's. */
const TYPES: ReadonlySet<string> = new Set(
  `VARCHAR CHAR CHARACTER NVARCHAR NCHAR VARCHAR2 NVARCHAR2 DECIMAL NUMERIC NUMBER FLOAT DOUBLE REAL
  TIMESTAMP TIME DATETIME2 DATETIMEOFFSET BIT VARBINARY BINARY INT INTEGER BIGINT SMALLINT TINYINT
  MEDIUMINT ENUM SET TEXT STRING RAW INTERVAL DEC`.split(/\s+/),
);

function caseOf(text: string): "upper" | "lower" | undefined {
  if (text === text.toUpperCase() && text !== text.toLowerCase()) return "upper";
  if (text === text.toLowerCase() && text !== text.toUpperCase()) return "lower";
  return undefined;
}

/**
 * L034 (SQLFluff CP03): function names written in a different case from the first function
 * name in the text (`COUNT(*)` and `max(x)`). Function names the tokenizer reads as keywords
 * (`CAST`, `COALESCE`) are KeywordCase's. Fix: the name is re-cased (unquoted names are
 * case-insensitive).
 *
 * @example
 * functionNameCase.check(createLintContext("SELECT COUNT(*), max(x) FROM t"), report); // 1:18
 */
export const functionNameCase: LintRule = {
  code: "L034",
  name: "FunctionNameCase",
  severity: "info",
  category: "consistency",
  aliases: ["CP03", "capitalisation.functions"],
  description:
    "Reports function names whose case differs from the first function name in the text, such as `max(x)` after `COUNT(*)`. Function names are case-insensitive, so mixed spellings only make code harder to scan and search. The first all-upper or all-lower name sets the style; names in mixed case, such as DateAdd, follow it too. The fix re-cases the name. Table names before a column list (`INSERT INTO t (a)`) and type names (`VARCHAR(20)`) are not functions and are not reported.",
  bad: "SELECT COUNT(*), max(total)\nFROM orders",
  good: "SELECT COUNT(*), MAX(total)\nFROM orders",
  fixable: true,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    const closing = closingParens(code);
    let policy: "upper" | "lower" | undefined;
    for (let i = 0; i + 1 < code.length; i++) {
      const name = code[i] as Token;
      if (name.kind !== "identifier" || code[i + 1]?.text !== "(") continue;
      if (TYPES.has(name.upper) || NOT_A_CALL.has(code[i - 1]?.upper ?? "")) continue;
      if (code[i - 1]?.text === "," && isCteColumnList(code, closing[i + 1] ?? -1)) continue;
      const own = caseOf(name.text);
      policy ??= own;
      if (policy === undefined || own === policy) continue;
      const want = policy === "upper" ? name.text.toUpperCase() : name.text.toLowerCase();
      report({
        line: name.line,
        column: name.column,
        message: `Function '${name.text}' is not ${policy} case like the first function`,
        suggestion: `Write ${want}`,
        fix: [{ start: name.start, end: name.end, text: want }],
      });
    }
  },
};

/**
 * For each `(` (by index in `code`), the index of the `)` that closes it (-1: never closed), in
 * one pass: looking each one up by scanning ahead made many nested calls quadratic.
 */
function closingParens(code: readonly Token[]): Int32Array {
  const closing = new Int32Array(code.length).fill(-1);
  const open: number[] = [];
  for (let j = 0; j < code.length; j++) {
    const text = (code[j] as Token).text;
    if (text === "(") open.push(j);
    else if (text === ")") {
      const start = open.pop();
      if (start !== undefined) closing[start] = j;
    }
  }
  return closing;
}

/** True when the `)` at `close` is followed by `AS (`: a CTE's column list (`, x (a, b) AS (`). */
function isCteColumnList(code: readonly Token[], close: number): boolean {
  return close >= 0 && code[close + 1]?.upper === "AS" && code[close + 2]?.text === "(";
}
