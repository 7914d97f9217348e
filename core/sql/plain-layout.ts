import type { Token } from "./token.js";

/**
 * The layout of last resort, for text the formatter's grammar rejects: whitespace runs become one
 * space, a line comment keeps its line end, each statement after a `;` starts a new line, and
 * keywords are upper-cased when asked (boolean literals keep their spelling). Tokens that touched
 * stay touching and no whitespace is added inside a token, so meaning cannot change, and the
 * result lays out to itself.
 *
 * @example
 * plainLayout(tokenize("select  a ,b from t where (("), true); // "SELECT a ,b FROM t WHERE (("
 */
export function plainLayout(tokens: readonly Token[], uppercaseKeywords: boolean): string {
  let out = "";
  let gap: "" | " " | "\n" = "";
  for (const t of tokens) {
    if (t.kind === "whitespace" || t.kind === "newline") {
      if (gap === "") gap = " ";
      continue;
    }
    if (out !== "") out += gap;
    out += uppercaseKeywords && t.kind === "keyword" && !isBoolean(t) ? t.upper : t.text;
    gap = t.kind === "line_comment" || t.text === ";" ? "\n" : "";
  }
  return out;
}

function isBoolean(t: Token): boolean {
  return t.upper === "TRUE" || t.upper === "FALSE";
}
