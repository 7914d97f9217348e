/**
 * The token model of the single-pass SQL tokenizer (`tokenize` in `./tokenizer.ts`), shared by the
 * lint rules, the injection scanner, statement splitting and the dialect-feature checks.
 */

/** Kinds of token. Whitespace and newlines are tokens too, so rules can see layout. */
export type TokenKind =
  | "keyword" // a reserved or well-known SQL word (SELECT, FROM, AS, …), matched case-insensitively
  | "identifier" // an unquoted name that is not a keyword
  | "quoted_identifier" // "name", `name`, [name]
  | "string" // 'text', N'text', E'text', X'ff' (hex literal), $$text$$ / $tag$text$tag$
  | "number" // 42, 3.14, 1e10, 0x1F
  | "operator" // = <> != <= >= || :: + - * / % etc.
  | "punctuation" // , ; ( ) . [ ] { } (brackets that do not quote an identifier)
  | "parameter" // ?, $1, :name, @name, @@version
  | "line_comment" // -- … or # … (mysql)
  | "block_comment" // /* … */ (an unterminated one runs to the end, with `unterminated: true`)
  | "whitespace" // spaces and tabs (no newlines)
  | "newline" // \n, \r\n or a lone \r
  | "unknown"; // a character no rule knows

/** One token. Offsets are UTF-16 indices into the source; line and column are 1-based. */
export interface Token {
  readonly kind: TokenKind;
  /** The exact source text of the token. */
  readonly text: string;
  /** Start offset (UTF-16 code unit index). */
  readonly start: number;
  /** End offset, exclusive. */
  readonly end: number;
  /** 1-based line of the first character. */
  readonly line: number;
  /** 1-based column of the first character, counted in code points. */
  readonly column: number;
  /**
   * Upper-cased text for keywords and identifiers (for case-insensitive comparisons); the same as
   * `text` for every other kind.
   */
  readonly upper: string;
  /** True for a string, quoted identifier or block comment that hit the end of input unclosed. */
  readonly unterminated?: true;
}

/**
 * True for tokens that carry meaning: not whitespace, newlines or comments. The one definition of
 * "significant" for the tokenizer, the formatter, statement splitting, dialect checks, lint and
 * the scanner.
 *
 * @example
 * isSignificant({ kind: "whitespace" } as Token); // false
 * isSignificant({ kind: "keyword" } as Token); // true
 */
export function isSignificant(token: Token): boolean {
  const k = token.kind;
  return k !== "whitespace" && k !== "newline" && k !== "line_comment" && k !== "block_comment";
}

/**
 * True when `token` can end an operand: a name, a literal, a parameter, or a closing `)` or `]`.
 * The tokenizer reads a `[` after one as a subscript, not a quoted identifier; lint rules add
 * their own keywords that end an operand (`NULL`, `END`…) on top.
 *
 * @example
 * endsOperand({ kind: "identifier", text: "arr" } as Token); // true
 * endsOperand({ kind: "operator", text: "+" } as Token); // false
 */
export function endsOperand(token: Token | undefined): boolean {
  if (token === undefined) return false;
  switch (token.kind) {
    case "identifier":
    case "quoted_identifier":
    case "number":
    case "string":
    case "parameter":
      return true;
    case "punctuation":
      return token.text === ")" || token.text === "]";
    default:
      return false;
  }
}
