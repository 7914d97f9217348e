import { PARSE_LIMITS } from "./parse-limits.js";

/** What a character counts towards (by char code, ASCII only): see {@link CLASS}. */
const NONE = 0;
const OPERATOR = 1;
const OPEN = 2;
const SEMICOLON = 3;
/** A letter some counted word starts with (a, o, c, u, i, e, m, j in either case). */
const INITIAL = 4;
const DOT = 5;

/** The class of each ASCII character (operators start with the characters of `scanOperator`). */
const CLASS = new Uint8Array(128);
for (const ch of "=<>+-*/%^&|~!@:#") CLASS[ch.charCodeAt(0)] = OPERATOR;
CLASS[40] = OPEN;
CLASS[59] = SEMICOLON;
CLASS[46] = DOT;
for (const ch of "aocuiemjAOCUIEMJ") CLASS[ch.charCodeAt(0)] = INITIAL;

/** True when `sql` holds `word` (lower-case ASCII) at `at`, in any letter case. */
function wordAt(sql: string, at: number, word: string): boolean {
  for (let k = 1; k < word.length; k++) {
    if ((sql.charCodeAt(at + k) | 32) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** `and` or `or` (any letter case) at `at`, whose first character is `c`. */
function isConditionAt(sql: string, at: number, c: number): boolean {
  const lower = c | 32;
  if (lower === 111) return (sql.charCodeAt(at + 1) | 32) === 114;
  return lower === 97 && wordAt(sql, at, "and");
}

/** `union`, `intersect`, `except` or `minus` (any letter case) at `at`. */
function isSetOperationAt(sql: string, at: number, c: number): boolean {
  switch (c | 32) {
    case 117:
      return wordAt(sql, at, "union");
    case 105:
      return wordAt(sql, at, "intersect");
    case 101:
      return wordAt(sql, at, "except");
    case 109:
      return wordAt(sql, at, "minus");
    default:
      return false;
  }
}

/**
 * Every limit counts at most one per character (a token, a `(`, a `case`), so no text this
 * short can reach one (`statements` counts a `;` only from the second statement on).
 */
const SMALLEST_LIMIT = Math.min(
  PARSE_LIMITS.depth,
  PARSE_LIMITS.chain,
  PARSE_LIMITS.conditions,
  PARSE_LIMITS.setOperations,
  PARSE_LIMITS.joins,
  PARSE_LIMITS.nameParts,
  PARSE_LIMITS.statements,
);

/**
 * True when `sql` certainly passes `findParseLimit` (so the caller may skip tokenising it for
 * the limits): one pass over the characters, without building tokens, counting upper bounds of
 * what the limits count. Nesting is at most the `(` characters plus the `case` substrings; an
 * operator chain at most the characters an operator can start with; AND/OR, set operations and
 * statements at most the `and`/`or`, `union`/`intersect`/`except`/`minus` substrings and the
 * `;` characters plus one, JOINs at most the `join` substrings, a name's dots at most the `.`
 * characters; and a block comment can only be unterminated when the last `/*` has
 * no `*\/` after it. Words are matched in ASCII letter case; the two non-ASCII letters that
 * upper-case into those words (`ı`, `ſ`) send the text to the tokens. Text inside strings and
 * comments only makes the bounds larger, so a false answer just means "tokenise and look"
 * (several times the cost of this pass), never a wrong verdict. Real SQL of a few KiB is
 * decided here, and a text no longer than the smallest limit (200 characters) without even a
 * pass: every count is at most one per character.
 *
 * @example
 * surelyWithinParseLimits("SELECT id FROM users WHERE id = 42"); // true
 * surelyWithinParseLimits("SELECT 1 /* open"); // false: findParseLimit decides
 */
export function surelyWithinParseLimits(sql: string): boolean {
  const open = sql.lastIndexOf("/*");
  if (open !== -1 && sql.indexOf("*/", open + 2) === -1) return false;
  const n = sql.length;
  if (n <= SMALLEST_LIMIT) return true;
  let nesting = 0;
  let operators = 0;
  let conditions = 0;
  let setOperations = 0;
  let semicolons = 0;
  let joins = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = sql.charCodeAt(i);
    if (c >= 128) {
      // `ı` and `ſ` upper-case to I and S, so `unıon` tokenises as UNION: let the tokens decide.
      if (c === 0x131 || c === 0x17f) return false;
      continue;
    }
    const kind = CLASS[c];
    if (kind === NONE) continue;
    if (kind === OPERATOR) operators++;
    else if (kind === OPEN) nesting++;
    else if (kind === SEMICOLON) semicolons++;
    else if (kind === DOT) dots++;
    else if (isConditionAt(sql, i, c)) conditions++;
    else if (isSetOperationAt(sql, i, c)) setOperations++;
    else if ((c | 32) === 99 && wordAt(sql, i, "case")) nesting++;
    else if ((c | 32) === 106 && wordAt(sql, i, "join")) joins++;
  }
  return (
    nesting <= PARSE_LIMITS.depth &&
    operators <= PARSE_LIMITS.chain &&
    conditions <= PARSE_LIMITS.conditions &&
    setOperations <= PARSE_LIMITS.setOperations &&
    semicolons < PARSE_LIMITS.statements &&
    joins <= PARSE_LIMITS.joins &&
    dots <= PARSE_LIMITS.nameParts
  );
}
