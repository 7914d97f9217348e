import type { Token } from "./token.js";
import { bondsToPrevious, ON_NEW_LINE } from "./token-bonds.js";

/**
 * The layout of last resort, for text the formatter's grammar rejects: whitespace runs become one
 * space, a line comment keeps its line end, each statement after a `;` starts a new line, and
 * keywords are upper-cased when asked (boolean literals keep their spelling); a string continued
 * from the string before it stays on its own line. Tokens that touched
 * stay touching and no whitespace is added inside a token, so meaning cannot change, and the
 * result lays out to itself.
 *
 * @example
 * plainLayout(tokenize("select  a ,b from t where (("), true); // "SELECT a ,b FROM t WHERE (("
 */
export function plainLayout(tokens: readonly Token[], uppercaseKeywords: boolean): string {
  let out = "";
  let gap: "" | " " | "\n" = "";
  const bonds = bondsToPrevious(tokens);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === "whitespace" || t.kind === "newline") {
      if (gap === "") gap = " ";
      continue;
    }
    // `'foo'` and `'bar'` make one string only with a line break between them.
    if (bonds[i] === ON_NEW_LINE) gap = "\n";
    if (out !== "") out += gap;
    out += uppercaseKeywords && t.kind === "keyword" && !isBoolean(t) ? t.upper : t.text;
    gap = t.kind === "line_comment" || t.text === ";" ? "\n" : "";
  }
  return out;
}

function isBoolean(t: Token): boolean {
  return t.upper === "TRUE" || t.upper === "FALSE";
}
