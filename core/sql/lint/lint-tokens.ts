import type { SqlDialect } from "../dialects.js";
import type { Token } from "../token.js";
import { dialectTokenizeOptions } from "../format.js";
import { tokenize } from "../tokenizer.js";
import { templateTokens } from "../template-spans.js";

/** Units of `INTERVAL 2 DAY` (MySQL, Oracle, Snowflake, BigQuery-style) and `DAY TO SECOND`. */
export const INTERVAL_UNITS: ReadonlySet<string> = new Set(
  `MICROSECOND MILLISECOND SECOND MINUTE HOUR DAY WEEK MONTH QUARTER YEAR DECADE CENTURY
  MICROSECONDS MILLISECONDS SECONDS MINUTES HOURS DAYS WEEKS MONTHS QUARTERS YEARS
  SECOND_MICROSECOND MINUTE_MICROSECOND MINUTE_SECOND HOUR_MICROSECOND HOUR_SECOND HOUR_MINUTE
  DAY_MICROSECOND DAY_SECOND DAY_MINUTE DAY_HOUR YEAR_MONTH`.split(/\s+/),
);

/** Words that are operators or clause words in one dialect only (identifiers elsewhere). */
const DIALECT_KEYWORDS: Readonly<Partial<Record<SqlDialect, ReadonlySet<string>>>> = {
  mysql: new Set(["DIV", "MOD", "XOR", "SEPARATOR", "STRAIGHT_JOIN", "SOUNDS"]),
  sqlserver: new Set(["APPLY", "PIVOT", "UNPIVOT", "OUTPUT"]),
  oracle: new Set(["CONNECT", "START", "PRIOR", "NOCYCLE", "SIBLINGS"]),
  snowflake: new Set(["QUALIFY", "ILIKE", "RLIKE", "SAMPLE"]),
  postgresql: new Set(["ILIKE", "SIMILAR"]),
};

function significant(t: Token): boolean {
  return (
    t.kind !== "whitespace" &&
    t.kind !== "newline" &&
    t.kind !== "line_comment" &&
    t.kind !== "block_comment"
  );
}

/**
 * The tokens the lint rules read `sql` as, in `dialect`: the shared tokenizer with MySQL's
 * backslash escapes in strings, then words re-read for the dialect so that a keyword is not taken
 * for a name (and so for an alias):
 *
 * - the unit of an interval (`INTERVAL 2 DAY`, `INTERVAL '1' DAY TO SECOND`) is a keyword, in
 *   every dialect;
 * - words that are operators in one dialect (`a DIV b` in MySQL) are keywords there;
 * - in MySQL, `"text"` is a string (MySQL reads double quotes as string quotes by default).
 *
 * Backticks and `[brackets]` quote identifiers in every dialect (the tokenizer's reading). Jinja
 * markup (`{{ … }}`, `{% … %}`, `{# … #}`, as in dbt models) is one token each, which no rule
 * changes ({@link templateTokens}).
 *
 * @example
 * lintTokens("SELECT NOW() - INTERVAL 2 day", "mysql").at(-1)?.kind; // "keyword"
 * lintTokens(`SELECT "a"`, "mysql").at(-1)?.kind; // "string"
 */
export function lintTokens(sql: string, dialect: SqlDialect = "generic"): Token[] {
  const options = dialectTokenizeOptions(dialect);
  const tokens = templateTokens(sql, (text) => tokenize(text, options));
  return dialectTokens(tokens, dialect);
}

/**
 * {@link lintTokens}'s re-reading of tokens the caller already has (in place of a copy only when
 * something changes).
 *
 * @example
 * dialectTokens(tokenize("SELECT a DIV b"), "mysql")[4]?.kind; // "keyword"
 */
export function dialectTokens(tokens: Token[], dialect: SqlDialect = "generic"): Token[] {
  const words = DIALECT_KEYWORDS[dialect];
  const out: Token[] = [];
  let changed = false;
  // Significant tokens seen before: two back, one back.
  let prev2: Token | undefined;
  let prev1: Token | undefined;
  let unclosedUntil = 0;
  for (let i = 0; i < tokens.length; i++) {
    let token = tokens[i] as Token;
    if (!significant(token)) {
      out.push(token);
      continue;
    }
    if (token.kind === "identifier") {
      const unit =
        INTERVAL_UNITS.has(token.upper) &&
        ((prev2?.upper === "INTERVAL" && isIntervalAmount(prev1)) ||
          (prev1?.upper === "TO" && prev2 !== undefined && INTERVAL_UNITS.has(prev2.upper)));
      if (unit || words?.has(token.upper) === true) {
        token = { ...token, kind: "keyword" };
        changed = true;
      }
    } else if (dialect === "mysql" && token.kind === "quoted_identifier" && token.text[0] === '"') {
      token = { ...token, kind: "string" };
      changed = true;
    } else if (
      token.text === "[" &&
      token.kind === "punctuation" &&
      i >= unclosedUntil &&
      bracketsName(tokens, i, dialect)
    ) {
      const close = closingBracket(tokens, i);
      if (close >= 0) {
        token = bracketed(tokens, i, close);
        i = close;
        changed = true;
      } else {
        // No `]` before the line ends: no later `[` up to there has one either (linear work).
        unclosedUntil = -close;
      }
    }
    out.push(token);
    prev2 = prev1;
    prev1 = token;
  }
  return changed ? out : tokens;
}

/**
 * The tokenizer reads `[` right after an operand as a subscript (`arr[1]`), but T-SQL writes
 * bracketed aliases there (`COUNT(*) [total rows]`, `TOP 10 [first name]`). Outside PostgreSQL,
 * a `[` after a space is a bracketed name; in SQL Server every `[` is (T-SQL has no subscripts).
 * Fixes rely on it: spaces inside a name are data.
 */
function bracketsName(tokens: readonly Token[], i: number, dialect: SqlDialect): boolean {
  if (dialect === "sqlserver") return true;
  if (dialect === "postgresql") return false;
  const before = tokens[i - 1];
  return before !== undefined && (before.kind === "whitespace" || before.kind === "newline");
}

/**
 * Index of the `]` that closes the `[` at `open` on the same line, or, when there is none, minus
 * the index where the search stopped (the line break or the end).
 */
function closingBracket(tokens: readonly Token[], open: number): number {
  let j = open + 1;
  for (; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    if (t.kind === "newline") break;
    if (t.text === "]" && t.kind === "punctuation") return j;
  }
  return -j;
}

/** One quoted-identifier token for `tokens[open..close]`. */
function bracketed(tokens: readonly Token[], open: number, close: number): Token {
  const first = tokens[open] as Token;
  let text = "";
  for (let j = open; j <= close; j++) text += (tokens[j] as Token).text;
  return {
    kind: "quoted_identifier",
    text,
    start: first.start,
    end: (tokens[close] as Token).end,
    line: first.line,
    column: first.column,
    upper: text,
  };
}

function isIntervalAmount(token: Token | undefined): boolean {
  return (
    token !== undefined &&
    (token.kind === "number" ||
      token.kind === "string" ||
      token.kind === "parameter" ||
      token.kind === "identifier")
  );
}
