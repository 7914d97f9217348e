import type { SqlDialect } from "../dialects.js";
import type { LintViolation } from "../results.js";
import type { Token } from "../token.js";
import { lintTokens } from "./lint-tokens.js";

/** The code SQLFluff gives text it cannot lex; reported by `sqlsvc lint` beside the rules. */
export const LEX_ERROR_CODE = "LXR";
/** The code SQLFluff gives text it cannot parse. */
export const PARSE_ERROR_CODE = "PRS";

const WHAT: Readonly<Partial<Record<Token["kind"], string>>> = {
  string: "String literal",
  quoted_identifier: "Quoted identifier",
  block_comment: "Block comment",
};

/**
 * What keeps `sql` from being read as SQL tokens in `dialect`: each string, quoted identifier or
 * block comment left open (it runs to the end of the text) and each character no token can
 * start with, as `LXR` violations (severity error). Empty for text that lexes. The CLI reports
 * them beside the rules' violations so that a file that is not SQL never passes.
 *
 * @example
 * lexViolations("SELECT 'open").map((v) => v.message); // ["String literal is never closed"]
 */
export function lexViolations(sql: string, dialect: SqlDialect = "generic"): LintViolation[] {
  const out: LintViolation[] = [];
  for (const token of lintTokens(sql, dialect)) {
    if (token.unterminated === true) {
      const what = WHAT[token.kind] ?? "Token";
      out.push(lexError(token, `${what} is never closed`, "Close it where it should end"));
    } else if (token.kind === "unknown") {
      const message = `Unexpected character ${JSON.stringify(token.text)}`;
      out.push(lexError(token, message, "Remove it, or quote it in a string"));
    }
  }
  return out;
}

function lexError(token: Token, message: string, suggestion: string): LintViolation {
  return {
    rule: LEX_ERROR_CODE,
    rule_name: "LexError",
    severity: "error",
    message,
    line: token.line,
    column: token.column,
    suggestion,
  };
}

/**
 * A parser's refusal (`line 3, column 8: unexpected FROM, …`, as `validate_sql` words it) as a
 * `PRS` violation at that position (line 1, column 1 when the message names none).
 *
 * @example
 * parseViolation("line 2, column 5: unexpected end of input").column; // 5
 */
export function parseViolation(error: string): LintViolation {
  const at = /line (\d+), column (\d+):\s*/.exec(error);
  return {
    rule: PARSE_ERROR_CODE,
    rule_name: "ParseError",
    severity: "error",
    message: at === null ? error : error.slice(at.index + at[0].length),
    line: at === null ? 1 : Number(at[1]),
    column: at === null ? 1 : Number(at[2]),
    suggestion: "Fix the syntax for the dialect, or choose the file's dialect",
  };
}
