import type { Token } from "./token.js";

/** PostgreSQL's operator characters: a run of them is read as one operator (with one exception). */
const PG_OPERATOR_CHARS = /^[-+*/<>=~!@#%^&|`?]+$/;
/** A run that ends in `+`/`-` and has none of these loses its trailing signs (`=-` is `=`, `-`). */
const PG_OPERATOR_SPECIALS = /[~!@#%^&|`?]/;

/**
 * Which tokens must stay touching the token before them when SQL is laid out: those the source
 * wrote together and that read differently once a space parts them, because the tokenizer splits
 * them more finely than the dialect does. `glued[i]` is 1 when `tokens[i]` touches `tokens[i - 1]`
 * and must keep touching it:
 *
 * - a word or number right after a number (MySQL's `00f` and `1d` are names, T-SQL's `0x` an empty
 *   binary): `00 f` is a number aliased `f`;
 * - an `@name` right after a name (an Oracle database link, `orders@remote`);
 * - a run of operator tokens that PostgreSQL reads as fewer operators than the tokens
 *   (`<%`, `<->`-like `<+>`, `&>`, `-|-`, `===`): it reads the longest run of operator characters
 *   as one operator, so `< %` is two operators and `<%` one. Runs it splits as the tokenizer does
 *   (`=-` before a number: `=` and `-`) may be spaced as usual.
 *
 * @example
 * gluedToPrevious(tokenize("SELECT a <% b, 00f")); // 1 at `%` and at `f`, 0 elsewhere
 */
export function gluedToPrevious(tokens: readonly Token[]): Uint8Array {
  const glued = new Uint8Array(tokens.length);
  for (let i = 1; i < tokens.length; i++) {
    const prev = tokens[i - 1] as Token;
    const t = tokens[i] as Token;
    if (prev.end !== t.start) continue;
    if (prev.kind === "number" && (isWord(t) || t.kind === "number")) glued[i] = 1;
    else if (isName(prev) && t.kind === "parameter" && t.text.startsWith("@")) glued[i] = 1;
    else if (prev.kind === "operator" && t.kind === "operator") {
      let end = i + 1;
      while (end < tokens.length && touchingOperator(tokens[end - 1] as Token, tokens[end])) end++;
      const run = tokens.slice(i - 1, end).map((x) => x.text);
      const text = run.join("");
      if (PG_OPERATOR_CHARS.test(text) && !sameSplit(run, pgOperatorSplit(text))) {
        glued.fill(1, i, end);
      }
      i = end - 1;
    }
  }
  return glued;
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
