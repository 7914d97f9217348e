import * as ch from "./char-codes.js";
import { SQL_KEYWORDS } from "./keywords.js";
import { expectSqlText } from "./sql-text.js";
import { endsOperand, isSignificant, type Token, type TokenKind } from "./token.js";

/*
 * Long because: the tokenizer is a single hot loop whose character classes and sub-scanners are
 * inlined candidates; splitting it would scatter the dialect choices below, which belong together.
 *
 * Choices where dialects disagree (documented here because rules and the scanner depend on them):
 *
 * - Block comments do NOT nest (MySQL, SQLite, Oracle): `/* a /* b *\/` ends at the first `*\/`.
 *   PostgreSQL and SQL Server nest, but for the injection scanner the flat reading is the
 *   conservative one: text after the first `*\/` is treated as code, so `/* /* *\/ UNION SELECT`
 *   cannot hide a UNION from the scanner on MySQL. `nestedComments` reads them nested (the
 *   formatter and linter in PostgreSQL and SQL Server).
 * - `#` starts a line comment (MySQL) except: `#>`, `#>>` and `#-` are PostgreSQL JSON operators;
 *   `#name`/`##name` right after FROM, JOIN, INTO, TABLE, UPDATE, EXISTS or TRUNCATE is a SQL Server
 *   temporary table (identifier). PostgreSQL's rare binary `#` (XOR) is read as a comment.
 *   With `hashInNames` (SQL Server, Oracle), `#` is a name character everywhere.
 * - `U&'…'` is one string and `U&"…"` one quoted name (Unicode escapes), not `U & '…'`.
 * - Plain '…' strings follow the standard: only `''` escapes; backslashes are literal. E'…' strings
 *   (PostgreSQL) also honour backslash escapes.
 * - `[` opens a bracketed identifier (SQL Server) unless it follows an operand (`arr[1]`), the
 *   keyword ARRAY, or is immediately closed (`int[]`); then `[` and `]` are punctuation.
 * - `$1` and `$name` are parameters; `$$…$$` and `$tag$…$tag$` are dollar-quoted strings.
 * - Any character at or above U+0080 that is not a space is an identifier character, so
 *   identifiers in any script (`ユーザー名`) are one token.
 */

const TEMP_TABLE_CONTEXT: ReadonlySet<string> = new Set([
  "FROM",
  "JOIN",
  "INTO",
  "TABLE",
  "UPDATE",
  "EXISTS",
  "TRUNCATE",
]);

const SINGLE_CHAR_OPERATORS: ReadonlySet<string> = new Set("=<>+-*/%^&|~!@:");
const OPERATORS_3: ReadonlySet<string> = new Set(["->>", "#>>", "<=>", "!~*", "<->"]);
const OPERATORS_2: ReadonlySet<string> = new Set([
  "<>", "!=", "<=", ">=", "||", "::", "->", "#>", "#-", "<<", ">>", "&&", "@>", "<@", "~*", "!~",
  ":=", "=>", "==", "!<", "!>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
]); // prettier-ignore

/** How to read dialect-dependent details. */
export interface TokenizeOptions {
  /** Read `\'` inside '…' and "…" as an escaped quote (MySQL's default); off by default. */
  readonly backslashEscapes?: boolean;
  /**
   * `#` is a name character, never a comment (SQL Server: `#temp`, `Test#`; Oracle: `a$x#b`);
   * off by default (MySQL's `#` comments).
   */
  readonly hashInNames?: boolean;
  /** Block comments nest (`/* a /* b *\/ c *\/` is one comment), as in PostgreSQL and SQL Server. */
  readonly nestedComments?: boolean;
}

/** A space that is not a line break (newlines are tokens of their own). */
function isSpace(c: number): boolean {
  return (
    c === ch.SPACE ||
    c === ch.TAB ||
    c === ch.VERTICAL_TAB ||
    c === ch.FORM_FEED ||
    c === ch.NO_BREAK_SPACE ||
    c === ch.BYTE_ORDER_MARK ||
    c === ch.IDEOGRAPHIC_SPACE ||
    c === ch.NEXT_LINE ||
    (c >= ch.EN_QUAD && c <= ch.ZERO_WIDTH_SPACE) ||
    c === ch.LINE_SEPARATOR ||
    c === ch.PARAGRAPH_SEPARATOR
  );
}

function isLineBreak(c: number): boolean {
  return c === ch.LINE_FEED || c === ch.CARRIAGE_RETURN;
}

function isDigit(c: number): boolean {
  return c >= ch.DIGIT_0 && c <= ch.DIGIT_9;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= ch.UPPER_A && c <= ch.UPPER_F) || (c >= ch.LOWER_A && c <= ch.LOWER_F);
}

function isIdentStart(c: number): boolean {
  return (
    (c >= ch.UPPER_A && c <= ch.UPPER_Z) ||
    (c >= ch.LOWER_A && c <= ch.LOWER_Z) ||
    c === ch.UNDERSCORE ||
    (c >= ch.FIRST_NON_ASCII && !isSpace(c))
  );
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c) || c === ch.DOLLAR;
}

/** A character that continues a name; `#` too with `hashInNames` (`Test#`, `@var#test`). */
function isNamePart(c: number, hashInNames: boolean): boolean {
  return isIdentPart(c) || (hashInNames && c === ch.HASH);
}

/** `N'…'` (national), `E'…'` (escapes), `X'…'` (hex) and `B'…'` (bits), either case. */
function isStringPrefix(c: number): boolean {
  const lower = c | ch.ASCII_CASE_BIT;
  return (
    lower === ch.LOWER_N || lower === ch.LOWER_E || lower === ch.LOWER_X || lower === ch.LOWER_B
  );
}

function isPunctuation(c: number): boolean {
  return (
    c === ch.COMMA ||
    c === ch.SEMICOLON ||
    c === ch.OPEN_PAREN ||
    c === ch.CLOSE_PAREN ||
    c === ch.DOT ||
    c === ch.OPEN_BRACKET ||
    c === ch.CLOSE_BRACKET ||
    c === ch.OPEN_BRACE ||
    c === ch.CLOSE_BRACE
  );
}

/** End offset of a quoted run starting after the opening quote, and whether it was closed. */
function scanQuoted(sql: string, from: number, quote: number, backslash: boolean): number {
  const n = sql.length;
  let i = from;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (backslash && c === ch.BACKSLASH) {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql.charCodeAt(i + 1) === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/**
 * Splits SQL into tokens in one linear pass, covering every character of the input exactly once
 * (concatenating the token texts gives back the input). Never throws: unclosed strings, quoted
 * identifiers and block comments run to the end of the input and are marked `unterminated`.
 * `upper` is the upper-cased text for keywords and identifiers and the text itself otherwise, so
 * `token.upper === "SELECT"` never matches a string or a quoted identifier.
 *
 * With `backslashEscapes`, a backslash also escapes the next character inside '…' and "…", as
 * MySQL reads them by default (the standard reading is the default here).
 *
 * @example
 * tokenize("SELECT 'it''s' -- note").map((t) => t.kind);
 * // ["keyword", "whitespace", "string", "whitespace", "line_comment"]
 * tokenize("'a\\' b'", { backslashEscapes: true }).length; // 1
 */
export function tokenize(sql: string, options: TokenizeOptions = {}): Token[] {
  expectSqlText(sql);
  const backslash = options.backslashEscapes === true;
  const hashInNames = options.hashInNames === true;
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;
  let line = 1;
  let column = 1;
  let prev: Token | undefined;

  while (i < n) {
    const start = i;
    const c = sql.charCodeAt(i);
    const next = i + 1 < n ? sql.charCodeAt(i + 1) : -1;
    let kind: TokenKind;
    let end: number;
    let unterminated = false;

    if (isLineBreak(c)) {
      kind = "newline";
      end = c === ch.CARRIAGE_RETURN && next === ch.LINE_FEED ? i + 2 : i + 1;
    } else if (isSpace(c)) {
      kind = "whitespace";
      end = i + 1;
      while (end < n && isSpace(sql.charCodeAt(end))) end++;
    } else if (c === ch.SINGLE_QUOTE) {
      kind = "string";
      end = scanQuoted(sql, i + 1, ch.SINGLE_QUOTE, backslash);
    } else if (next === ch.SINGLE_QUOTE && isStringPrefix(c)) {
      kind = "string";
      const escapes = (c | ch.ASCII_CASE_BIT) === ch.LOWER_E;
      end = scanQuoted(sql, i + 2, ch.SINGLE_QUOTE, escapes);
    } else if ((c | ch.ASCII_CASE_BIT) === ch.LOWER_U && isUnicodeQuote(sql, i + 1)) {
      // U&'…' strings and U&"…" names (Unicode escapes, PostgreSQL and the standard).
      const quote = sql.charCodeAt(i + 2);
      kind = quote === ch.SINGLE_QUOTE ? "string" : "quoted_identifier";
      end = scanQuoted(sql, i + 3, quote, backslash);
    } else if (isIdentStart(c) || (hashInNames && c === ch.HASH)) {
      end = i + 1;
      while (end < n && isNamePart(sql.charCodeAt(end), hashInNames)) end++;
      kind = "identifier";
    } else if (
      isDigit(c) ||
      (c === ch.DOT && isDigit(next) && !(i > 0 && isIdentPart(sql.charCodeAt(i - 1))))
    ) {
      kind = "number";
      end = scanNumber(sql, i);
    } else if (c === ch.DOUBLE_QUOTE || c === ch.BACKTICK) {
      kind = "quoted_identifier";
      end = scanQuoted(sql, i + 1, c, backslash && c === ch.DOUBLE_QUOTE);
    } else if (
      c === ch.OPEN_BRACKET &&
      next !== ch.CLOSE_BRACKET &&
      !endsOperand(prev) &&
      prev?.upper !== "ARRAY"
    ) {
      kind = "quoted_identifier";
      end = scanQuoted(sql, i + 1, ch.CLOSE_BRACKET, false);
    } else if (c === ch.MINUS && next === ch.MINUS) {
      kind = "line_comment";
      end = lineEnd(sql, i + 2);
    } else if (c === ch.SLASH && next === ch.ASTERISK) {
      kind = "block_comment";
      if (options.nestedComments === true) end = nestedCommentEnd(sql, i + 2);
      else {
        const close = sql.indexOf("*/", i + 2);
        end = close === -1 ? -1 : close + 2;
      }
    } else if (c === ch.HASH) {
      if (next === ch.GREATER_THAN || next === ch.MINUS) {
        kind = "operator";
        end = sql.startsWith("#>>", i) ? i + 3 : i + 2;
      } else if (
        (isIdentStart(next) || next === ch.HASH) &&
        prev !== undefined &&
        prev.kind === "keyword" &&
        TEMP_TABLE_CONTEXT.has(prev.upper)
      ) {
        kind = "identifier";
        end = i + 1;
        while (end < n && (isIdentPart(sql.charCodeAt(end)) || sql.charCodeAt(end) === ch.HASH)) {
          end++;
        }
      } else {
        kind = "line_comment";
        end = lineEnd(sql, i + 1);
      }
    } else if (c === ch.DOLLAR) {
      [kind, end] = scanDollar(sql, i);
    } else if (c === ch.QUESTION_MARK) {
      kind = "parameter";
      end = i + 1;
    } else if (c === ch.AT_SIGN && (isIdentStart(next) || next === ch.AT_SIGN)) {
      kind = "parameter";
      end = i + (next === ch.AT_SIGN ? 2 : 1);
      while (end < n && isNamePart(sql.charCodeAt(end), hashInNames)) end++;
    } else if (c === ch.COLON && (isIdentStart(next) || isDigit(next))) {
      kind = "parameter";
      end = i + 2;
      while (end < n && isIdentPart(sql.charCodeAt(end))) end++;
    } else if (isPunctuation(c)) {
      kind = "punctuation";
      end = i + 1;
    } else {
      const op = scanOperator(sql, i);
      if (op > 0) {
        kind = "operator";
        end = i + op;
      } else {
        kind = "unknown";
        // Keep a surrogate pair together so a token never splits a code point.
        end = isHighSurrogate(c) && isLowSurrogate(next) ? i + 2 : i + 1;
      }
    }

    if (end < 0) {
      end = n;
      unterminated = true;
    }
    const text = sql.slice(start, end);
    let upper = text;
    if (kind === "identifier") {
      upper = text.toUpperCase();
      if (SQL_KEYWORDS.has(upper)) kind = "keyword";
    }
    const token: Token = unterminated
      ? { kind, text, start, end, line, column, upper, unterminated: true }
      : { kind, text, start, end, line, column, upper };
    tokens.push(token);
    // The previous significant token decides whether `[` opens a subscript (see endsOperand).
    if (isSignificant(token)) prev = token;

    // Advance line and column over the token (columns count code points, not UTF-16 units).
    // Tokens of these kinds are ASCII-only and never span lines: one step per unit.
    if (
      kind === "whitespace" ||
      kind === "number" ||
      kind === "operator" ||
      kind === "punctuation"
    ) {
      column += end - start;
      i = end;
      continue;
    }
    if (kind === "newline") {
      line++;
      column = 1;
      i = end;
      continue;
    }
    for (let k = start; k < end; k++) {
      const unit = sql.charCodeAt(k);
      if (unit === ch.LINE_FEED) {
        line++;
        column = 1;
      } else if (unit === ch.CARRIAGE_RETURN) {
        if (sql.charCodeAt(k + 1) !== ch.LINE_FEED) {
          line++;
          column = 1;
        }
      } else if (!(isLowSurrogate(unit) && k > 0 && isHighSurrogate(sql.charCodeAt(k - 1)))) {
        column++;
      }
    }
    i = end;
  }
  return tokens;
}

function isHighSurrogate(c: number): boolean {
  return c >= ch.HIGH_SURROGATE_FIRST && c <= ch.HIGH_SURROGATE_LAST;
}

function isLowSurrogate(c: number): boolean {
  return c >= ch.LOW_SURROGATE_FIRST && c <= ch.LOW_SURROGATE_LAST;
}

/** True when `&'` or `&"` starts at `at` (after the `U` of a Unicode-escape string or name). */
function isUnicodeQuote(sql: string, at: number): boolean {
  if (sql.charCodeAt(at) !== ch.AMPERSAND) return false;
  const quote = sql.charCodeAt(at + 1);
  return quote === ch.SINGLE_QUOTE || quote === ch.DOUBLE_QUOTE;
}

/** End offset of a nesting block comment whose body starts at `from`, or -1 when unclosed. */
function nestedCommentEnd(sql: string, from: number): number {
  const n = sql.length;
  let depth = 1;
  let i = from;
  while (i < n - 1) {
    const c = sql.charCodeAt(i);
    const next = sql.charCodeAt(i + 1);
    if (c === ch.SLASH && next === ch.ASTERISK) {
      depth++;
      i += 2;
    } else if (c === ch.ASTERISK && next === ch.SLASH) {
      i += 2;
      if (--depth === 0) return i;
    } else i++;
  }
  return -1;
}

function lineEnd(sql: string, from: number): number {
  const n = sql.length;
  let i = from;
  while (i < n) {
    if (isLineBreak(sql.charCodeAt(i))) break;
    i++;
  }
  return i;
}

function scanNumber(sql: string, from: number): number {
  const n = sql.length;
  let i = from;
  if (
    sql.charCodeAt(i) === ch.DIGIT_0 &&
    (sql.charCodeAt(i + 1) | ch.ASCII_CASE_BIT) === ch.LOWER_X &&
    isHexDigit(sql.charCodeAt(i + 2))
  ) {
    i += 2;
    while (i < n && isHexDigit(sql.charCodeAt(i))) i++;
    return i;
  }
  while (i < n && isDigit(sql.charCodeAt(i))) i++;
  if (sql.charCodeAt(i) === ch.DOT && isDigit(sql.charCodeAt(i + 1))) {
    i++;
    while (i < n && isDigit(sql.charCodeAt(i))) i++;
  }
  if ((sql.charCodeAt(i) | ch.ASCII_CASE_BIT) === ch.LOWER_E) {
    let j = i + 1;
    const sign = sql.charCodeAt(j);
    if (sign === ch.PLUS || sign === ch.MINUS) j++;
    if (isDigit(sql.charCodeAt(j))) {
      i = j;
      while (i < n && isDigit(sql.charCodeAt(i))) i++;
    }
  }
  return i;
}

/** `$1` parameter, `$name` parameter, `$$…$$` / `$tag$…$tag$` string, or a lone `$`. */
function scanDollar(sql: string, from: number): [TokenKind, number] {
  const n = sql.length;
  const next = sql.charCodeAt(from + 1);
  if (isDigit(next)) {
    let i = from + 1;
    while (i < n && isDigit(sql.charCodeAt(i))) i++;
    return ["parameter", i];
  }
  let tagEnd = from + 1;
  if (next !== ch.DOLLAR) {
    if (!isIdentStart(next)) return ["unknown", from + 1];
    while (tagEnd < n) {
      const c = sql.charCodeAt(tagEnd);
      if (!(isIdentStart(c) || isDigit(c))) break;
      tagEnd++;
    }
    if (sql.charCodeAt(tagEnd) !== ch.DOLLAR) return ["parameter", tagEnd];
  }
  const delimiter = sql.slice(from, tagEnd + 1);
  const close = sql.indexOf(delimiter, tagEnd + 1);
  return ["string", close === -1 ? -1 : close + delimiter.length];
}

/** Length of the operator at `from` (longest match), or 0 when the character is no operator. */
function scanOperator(sql: string, from: number): number {
  const three = sql.slice(from, from + 3);
  if (three.length === 3 && OPERATORS_3.has(three)) return 3;
  const two = three.slice(0, 2);
  if (two.length === 2 && OPERATORS_2.has(two)) {
    // `x<@id` in SQL Server compares with a variable; only treat `<@` as containment otherwise.
    if (
      two !== "<@" ||
      !(isIdentStart(sql.charCodeAt(from + 2)) || sql.charCodeAt(from + 2) === ch.AT_SIGN)
    )
      return 2;
  }
  return SINGLE_CHAR_OPERATORS.has(sql.charAt(from)) ? 1 : 0;
}
