import { SQL_KEYWORDS } from "./keywords.js";
import { endsOperand, isSignificant, type Token, type TokenKind } from "./token.js";

/*
 * One file of about 400 lines on purpose: the tokenizer is a single hot loop whose character
 * classes and sub-scanners are inlined candidates; splitting it would scatter the dialect choices
 * below, which belong together.
 *
 * Choices where dialects disagree (documented here because rules and the scanner depend on them):
 *
 * - Block comments do NOT nest (MySQL, SQLite, Oracle): `/* a /* b *\/` ends at the first `*\/`.
 *   PostgreSQL and SQL Server nest, but for the injection scanner the flat reading is the
 *   conservative one: text after the first `*\/` is treated as code, so `/* /* *\/ UNION SELECT`
 *   cannot hide a UNION from the scanner on MySQL.
 * - `#` starts a line comment (MySQL) except: `#>`, `#>>` and `#-` are PostgreSQL JSON operators;
 *   `#name`/`##name` right after FROM, JOIN, INTO, TABLE, UPDATE, EXISTS or TRUNCATE is a SQL Server
 *   temporary table (identifier). PostgreSQL's rare binary `#` (XOR) is read as a comment.
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

const OPERATORS_3: ReadonlySet<string> = new Set(["->>", "#>>", "<=>", "!~*", "<->"]);
const OPERATORS_2: ReadonlySet<string> = new Set([
  "<>", "!=", "<=", ">=", "||", "::", "->", "#>", "#-", "<<", ">>", "&&", "@>", "<@", "~*", "!~",
  ":=", "=>", "==", "!<", "!>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
]); // prettier-ignore

/** How to read dialect-dependent details. */
export interface TokenizeOptions {
  /** Read `\'` inside '…' and "…" as an escaped quote (MySQL's default); off by default. */
  readonly backslashEscapes?: boolean;
}

function isSpace(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 11 ||
    c === 12 ||
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x3000 ||
    c === 0x85 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c >= 0x80 && !isSpace(c));
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c) || c === 36;
}

/** End offset of a quoted run starting after the opening quote, and whether it was closed. */
function scanQuoted(sql: string, from: number, quote: number, backslash: boolean): number {
  const n = sql.length;
  let i = from;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (backslash && c === 92) {
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
  const backslash = options.backslashEscapes === true;
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

    if (c === 10 || c === 13) {
      kind = "newline";
      end = c === 13 && next === 10 ? i + 2 : i + 1;
    } else if (isSpace(c)) {
      kind = "whitespace";
      end = i + 1;
      while (end < n && isSpace(sql.charCodeAt(end))) end++;
    } else if (c === 39) {
      kind = "string";
      end = scanQuoted(sql, i + 1, 39, backslash);
    } else if (
      (c === 78 ||
        c === 110 ||
        c === 69 ||
        c === 101 ||
        c === 88 ||
        c === 120 ||
        c === 66 ||
        c === 98) &&
      next === 39
    ) {
      kind = "string";
      end = scanQuoted(sql, i + 2, 39, c === 69 || c === 101);
    } else if (isIdentStart(c)) {
      end = i + 1;
      while (end < n && isIdentPart(sql.charCodeAt(end))) end++;
      kind = "identifier";
    } else if (
      isDigit(c) ||
      (c === 46 && isDigit(next) && !(i > 0 && isIdentPart(sql.charCodeAt(i - 1))))
    ) {
      kind = "number";
      end = scanNumber(sql, i);
    } else if (c === 34 || c === 96) {
      kind = "quoted_identifier";
      end = scanQuoted(sql, i + 1, c, backslash && c === 34);
    } else if (c === 91 && next !== 93 && !endsOperand(prev) && prev?.upper !== "ARRAY") {
      kind = "quoted_identifier";
      end = scanQuoted(sql, i + 1, 93, false);
    } else if (c === 45 && next === 45) {
      kind = "line_comment";
      end = lineEnd(sql, i + 2);
    } else if (c === 47 && next === 42) {
      kind = "block_comment";
      const close = sql.indexOf("*/", i + 2);
      end = close === -1 ? -1 : close + 2;
    } else if (c === 35) {
      if (next === 62 || next === 45) {
        kind = "operator";
        end = sql.startsWith("#>>", i) ? i + 3 : i + 2;
      } else if (
        (isIdentStart(next) || next === 35) &&
        prev !== undefined &&
        prev.kind === "keyword" &&
        TEMP_TABLE_CONTEXT.has(prev.upper)
      ) {
        kind = "identifier";
        end = i + 1;
        while (end < n && (isIdentPart(sql.charCodeAt(end)) || sql.charCodeAt(end) === 35)) end++;
      } else {
        kind = "line_comment";
        end = lineEnd(sql, i + 1);
      }
    } else if (c === 36) {
      [kind, end] = scanDollar(sql, i);
    } else if (c === 63) {
      kind = "parameter";
      end = i + 1;
    } else if (c === 64 && (isIdentStart(next) || next === 64)) {
      kind = "parameter";
      end = i + (next === 64 ? 2 : 1);
      while (end < n && isIdentPart(sql.charCodeAt(end))) end++;
    } else if (c === 58 && (isIdentStart(next) || isDigit(next))) {
      kind = "parameter";
      end = i + 2;
      while (end < n && isIdentPart(sql.charCodeAt(end))) end++;
    } else if (
      c === 44 ||
      c === 59 ||
      c === 40 ||
      c === 41 ||
      c === 46 ||
      c === 91 ||
      c === 93 ||
      c === 123 ||
      c === 125
    ) {
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
        end = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? i + 2 : i + 1;
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
      const ch = sql.charCodeAt(k);
      if (ch === 10) {
        line++;
        column = 1;
      } else if (ch === 13) {
        if (sql.charCodeAt(k + 1) !== 10) {
          line++;
          column = 1;
        }
      } else if (!(
        ch >= 0xdc00 &&
        ch <= 0xdfff &&
        k > 0 &&
        isHighSurrogate(sql.charCodeAt(k - 1))
      )) {
        column++;
      }
    }
    i = end;
  }
  return tokens;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function lineEnd(sql: string, from: number): number {
  const n = sql.length;
  let i = from;
  while (i < n) {
    const c = sql.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}

function scanNumber(sql: string, from: number): number {
  const n = sql.length;
  let i = from;
  if (
    sql.charCodeAt(i) === 48 &&
    (sql.charCodeAt(i + 1) | 32) === 120 &&
    isHexDigit(sql.charCodeAt(i + 2))
  ) {
    i += 2;
    while (i < n && isHexDigit(sql.charCodeAt(i))) i++;
    return i;
  }
  while (i < n && isDigit(sql.charCodeAt(i))) i++;
  if (sql.charCodeAt(i) === 46 && isDigit(sql.charCodeAt(i + 1))) {
    i++;
    while (i < n && isDigit(sql.charCodeAt(i))) i++;
  }
  if ((sql.charCodeAt(i) | 32) === 101) {
    let j = i + 1;
    const sign = sql.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
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
  if (next !== 36) {
    if (!isIdentStart(next)) return ["unknown", from + 1];
    while (tagEnd < n) {
      const c = sql.charCodeAt(tagEnd);
      if (!(isIdentStart(c) || isDigit(c))) break;
      tagEnd++;
    }
    if (sql.charCodeAt(tagEnd) !== 36) return ["parameter", tagEnd];
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
      !(isIdentStart(sql.charCodeAt(from + 2)) || sql.charCodeAt(from + 2) === 64)
    )
      return 2;
  }
  switch (sql.charCodeAt(from)) {
    case 61: // =
    case 60: // <
    case 62: // >
    case 43: // +
    case 45: // -
    case 42: // *
    case 47: // /
    case 37: // %
    case 94: // ^
    case 38: // &
    case 124: // |
    case 126: // ~
    case 33: // !
    case 64: // @
    case 58: // :
      return 1;
    default:
      return 0;
  }
}
