import type { Token } from "./token.js";

/** PostgreSQL's operator characters: a run of them is read as one operator (with one exception). */
const PG_OPERATOR_CHARS = /^[-+*/<>=~!@#%^&|`?]+$/;
/** A run that ends in `+`/`-` and has none of these loses its trailing signs (`=-` is `=`, `-`). */
const PG_OPERATOR_SPECIALS = /[~!@#%^&|`?]/;

/** `bonds[i]`: `tokens[i]` must keep touching the token before it. */
export const TOUCHING = 1;
/** `bonds[i]`: `tokens[i]` must stay on a later line than the string before it. */
export const ON_NEW_LINE = 2;

/**
 * How each token must stay placed against the one before it when SQL is laid out, where a space
 * or a join would change how the database reads them (0 where the layout is free):
 *
 * `TOUCHING`, for tokens the source wrote together that the tokenizer splits more finely than
 * the dialect does:
 * - a word or number right after a number (MySQL's `00f` and `1d` are names, T-SQL's `0x` an empty
 *   binary): `00 f` is a number aliased `f`;
 * - an `@name` right after a name (an Oracle database link, `orders@remote`);
 * - a run of operator tokens that PostgreSQL reads as fewer operators than the tokens
 *   (`<%`, `<+>`, `&>`, `-|-`, `===`): it reads the longest run of operator characters as one
 *   operator, so `< %` is two operators and `<%` one. Runs it splits as the tokenizer does
 *   (`=-` before a number: `=` and `-`) may be spaced as usual.
 *
 * `ON_NEW_LINE`, for a string after a string with only blanks and a line break between: the
 * standard (and PostgreSQL) joins `'foo'` and `'bar'` into one string only across a line break;
 * `'foo' 'bar'` on one line is a syntax error.
 *
 * @example
 * bondsToPrevious(tokenize("SELECT a <% b, 00f")); // TOUCHING at `%` and at `f`, 0 elsewhere
 */
export function bondsToPrevious(tokens: readonly Token[]): Uint8Array {
  const bonds = new Uint8Array(tokens.length);
  let afterString = tokens[0]?.kind === "string";
  let lineSinceString = false;
  for (let i = 1; i < tokens.length; i++) {
    const prev = tokens[i - 1] as Token;
    const t = tokens[i] as Token;
    if (t.kind === "string" && lineSinceString) bonds[i] = ON_NEW_LINE;
    if (t.kind === "newline" && afterString) lineSinceString = true;
    else if (t.kind !== "whitespace" && t.kind !== "newline") {
      afterString = t.kind === "string";
      lineSinceString = false;
    }
    if (prev.end !== t.start) continue;
    if (prev.kind === "number" && (isWord(t) || t.kind === "number")) bonds[i] = TOUCHING;
    else if (isName(prev) && t.kind === "parameter" && t.text.startsWith("@")) bonds[i] = TOUCHING;
    else if (prev.kind === "operator" && t.kind === "operator") {
      let end = i + 1;
      while (end < tokens.length && touchingOperator(tokens[end - 1] as Token, tokens[end])) end++;
      const run = tokens.slice(i - 1, end).map((x) => x.text);
      const text = run.join("");
      if (PG_OPERATOR_CHARS.test(text) && !sameSplit(run, pgOperatorSplit(text))) {
        bonds.fill(TOUCHING, i, end);
      }
      i = end - 1;
    }
  }
  return bonds;
}

function touchingOperator(prev: Token, t: Token | undefined): boolean {
  return t !== undefined && t.kind === "operator" && t.start === prev.end;
}

function isWord(t: Token): boolean {
  return t.kind === "identifier" || t.kind === "keyword";
}

function isName(t: Token): boolean {
  return isWord(t) || t.kind === "quoted_identifier";
}

function sameSplit(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/**
 * How PostgreSQL's lexer splits a run of operator characters: the longest run is one operator,
 * except that trailing `+`/`-` are split off a run without any of `~!@#%^&|`?`.
 */
function pgOperatorSplit(run: string): string[] {
  const parts: string[] = [];
  let rest = run;
  while (rest !== "") {
    let len = rest.length;
    if (!PG_OPERATOR_SPECIALS.test(rest)) {
      while (len > 1 && (rest[len - 1] === "+" || rest[len - 1] === "-")) len--;
    }
    parts.push(rest.slice(0, len));
    rest = rest.slice(len);
  }
  return parts;
}
