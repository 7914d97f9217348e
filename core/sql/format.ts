import { AgentServicesError } from "../errors.js";
import type { FormatOptions, FormatResult, ToolOutcome } from "./results.js";
import { isSignificant, type Token } from "./token.js";
import { layOutClauses } from "./clause-layout.js";
import { plainLayout } from "./plain-layout.js";
import { bondsToPrevious, ON_NEW_LINE, TOUCHING } from "./token-bonds.js";
import { templateTokens } from "./template-spans.js";
import { tokenize, type TokenizeOptions } from "./tokenizer.js";
import type { SqlDialect } from "./dialects.js";

/** The options of `format_sql` when the caller gives none. */
export const DEFAULT_FORMAT_OPTIONS: FormatOptions = {
  indent_size: 2,
  uppercase_keywords: false,
  add_semicolon: false,
};

/** Largest accepted `indent_size`. */
export const MAX_INDENT_SIZE = 16;

/**
 * `format_sql`: lays SQL out with the formatter built on the core's tokenizer
 * (`layOutClauses`): each clause on its own line with a short body beside it
 * (`SELECT id, name\nFROM users`), subqueries and long lists spread one level deeper,
 * statements separated by a blank line. Only whitespace between tokens changes (and keyword case
 * when `uppercase_keywords`), so meaning is kept: `IS NOT NULL` stays, comments stay, and
 * formatting twice gives the same text; a check that the laid-out text has the source's tokens
 * backs this up (text failing it, and text with unbalanced parentheses, gets a plain layout:
 * whitespace normalised, keywords cased). `add_semicolon` ends every statement with `;`.
 * `dialect` chooses how the text is read (`dialectTokenizeOptions`; `generic` reads as MySQL
 * when only MySQL's backslash escapes close every string, as `generic` validates MySQL's SQL).
 * Fails (`format failed: …`) only for text it cannot tokenise, such as an unterminated string,
 * or nesting deeper than {@link MAX_FORMAT_DEPTH} parentheses. Linear in the input's length.
 *
 * @example
 * formatSql("select id,name from users where active=true", { uppercase_keywords: true });
 * // { ok: true, result: { formatted_sql: "SELECT id, name\nFROM users\nWHERE active = true",
 * //   options: { indent_size: 2, uppercase_keywords: true, add_semicolon: false } } }
 */
export function formatSql(
  sql: string,
  options: Partial<FormatOptions> = {},
  sqlTokens?: readonly Token[],
  dialect: SqlDialect = "generic",
): ToolOutcome<FormatResult> {
  const opts = resolveOptions(options);
  let tokenizeOptions = dialectTokenizeOptions(dialect);
  // analyze_sql passes the tokens it already has for `sql`.
  let tokens = sqlTokens ?? readTokens(sql, tokenizeOptions);
  let unterminated = tokens.find((t) => t.unterminated === true);
  if (unterminated !== undefined && dialect === "generic") {
    // `generic` accepts what MySQL accepts, `'Spec\'s'` included: read it as MySQL does.
    const mysqlOptions = dialectTokenizeOptions("mysql");
    const mysqlTokens = readTokens(sql, mysqlOptions);
    if (!mysqlTokens.some((t) => t.unterminated === true)) {
      [tokens, tokenizeOptions, unterminated] = [mysqlTokens, mysqlOptions, undefined];
    }
  }
  if (unterminated !== undefined) {
    const what =
      unterminated.kind === "block_comment" ? "comment" : unterminated.kind.replace("_", " ");
    return {
      ok: false,
      error: `format failed: line ${unterminated.line}, column ${unterminated.column}: unterminated ${what}`,
    };
  }
  const tooDeep = firstTooDeep(tokens);
  if (tooDeep !== undefined) {
    return {
      ok: false,
      error: `format failed: line ${tooDeep.line}, column ${tooDeep.column}: nesting deeper than ${MAX_FORMAT_DEPTH} parentheses`,
    };
  }
  if (!tokens.some(isSignificant)) {
    // Nothing but comments and blanks: there is nothing to lay out.
    return { ok: true, result: { formatted_sql: sql.trim(), options: opts } };
  }
  // The semicolon goes in before the layout, so the layout treats it like one the user wrote
  // (and a second run sees the same input).
  const source = opts.add_semicolon ? withFinalSemicolon(sql, tokens) : sql;
  const sourceTokens = source === sql ? tokens : readTokens(source, tokenizeOptions);
  let text: string | undefined;
  if (balanced(sourceTokens)) {
    // Which tokens must stay touching or on a new line: read once, for the layout and the guard.
    const bonds = bondsToPrevious(sourceTokens);
    const laidOut = layOutClauses(
      sourceTokens,
      { indentSize: opts.indent_size, uppercaseKeywords: opts.uppercase_keywords },
      bonds,
    );
    if (sameTokens(sourceTokens, readTokens(laidOut, tokenizeOptions), bonds)) text = laidOut;
  }
  text ??= plainLayout(sourceTokens, opts.uppercase_keywords);
  return { ok: true, result: { formatted_sql: text, options: opts } };
}

/**
 * How the tokenizer reads `dialect`'s text: MySQL reads a backslash in a string as an escape;
 * PostgreSQL and SQL Server nest block comments; SQL Server and Oracle allow `#` in names.
 *
 * @example
 * dialectTokenizeOptions("mysql"); // { backslashEscapes: true }
 */
export function dialectTokenizeOptions(dialect: SqlDialect): TokenizeOptions {
  return DIALECT_TOKENIZE[dialect] ?? STANDARD_TOKENIZE;
}

const STANDARD_TOKENIZE: TokenizeOptions = Object.freeze({});
const DIALECT_TOKENIZE: Partial<Record<SqlDialect, TokenizeOptions>> = {
  mysql: Object.freeze({ backslashEscapes: true }),
  postgresql: Object.freeze({ nestedComments: true }),
  sqlserver: Object.freeze({ hashInNames: true, nestedComments: true }),
  oracle: Object.freeze({ hashInNames: true }),
};

/** True when every `)` closes an earlier `(` and none is left open. */
function balanced(tokens: readonly Token[]): boolean {
  let depth = 0;
  for (const t of tokens) {
    if (t.kind !== "punctuation") continue;
    if (t.text === "(") depth++;
    else if (t.text === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Deepest parenthesis nesting the formatter lays out. The layout is linear at any depth, but text
 * nested this deep is no longer readable laid out, and the limit keeps the output's indentation
 * (hence its size) bounded.
 */
export const MAX_FORMAT_DEPTH = 100;

function firstTooDeep(tokens: readonly Token[]): Token | undefined {
  let depth = 0;
  for (const t of tokens) {
    if (t.kind !== "punctuation") continue;
    if (t.text === "(" && ++depth > MAX_FORMAT_DEPTH) return t;
    if (t.text === ")") depth--;
  }
  return undefined;
}

function resolveOptions(options: Partial<FormatOptions>): FormatOptions {
  const opts: FormatOptions = {
    indent_size: options.indent_size ?? DEFAULT_FORMAT_OPTIONS.indent_size,
    uppercase_keywords: options.uppercase_keywords ?? DEFAULT_FORMAT_OPTIONS.uppercase_keywords,
    add_semicolon: options.add_semicolon ?? DEFAULT_FORMAT_OPTIONS.add_semicolon,
  };
  const indent = opts.indent_size;
  if (!Number.isInteger(indent) || indent < 0 || indent > MAX_INDENT_SIZE) {
    throw new AgentServicesError(
      "invalid_input",
      `indent_size: expected an integer from 0 to ${MAX_INDENT_SIZE}, got ${String(indent)}`,
    );
  }
  return opts;
}

/**
 * True when `after` (the laid-out text's tokens) has the source's tokens apart from whitespace,
 * keyword case and trailing blanks of line comments, with the source's bonds kept (`bondsToPrevious`:
 * tokens that must touch still touch, a continued string is still on a new line): the guarantee
 * that formatting never changes meaning.
 */
function sameTokens(source: readonly Token[], after: readonly Token[], bonds: Uint8Array): boolean {
  let j = 0;
  let previous: Token | undefined;
  // Two cursors over the source's and the layout's tokens, skipping layout (no filtered copies).
  for (let i = 0; i < source.length; i++) {
    const a = source[i] as Token;
    if (isLayout(a)) continue;
    while (j < after.length && isLayout(after[j] as Token)) j++;
    const b = after[j++];
    if (b === undefined || a.kind !== b.kind) return false;
    if (bonds[i] === TOUCHING && previous?.end !== b.start) return false;
    if (bonds[i] === ON_NEW_LINE && !(previous !== undefined && b.line > previous.line)) {
      return false;
    }
    previous = b;
    if (a.text === b.text) continue;
    if (a.kind === "keyword" && a.upper === b.upper) continue;
    if (a.kind === "line_comment" && a.text.trimEnd() === b.text) continue;
    return false;
  }
  while (j < after.length && isLayout(after[j] as Token)) j++;
  return j === after.length;
}

/**
 * The tokens of `text`, with each span of Jinja markup (dbt models) one token the layout moves
 * whole and never re-cases: `--upper` made `{% if x %}` into `{% IF x %}`, which Jinja rejects.
 */
function readTokens(text: string, options: TokenizeOptions): Token[] {
  return templateTokens(text, (t) => tokenize(t, options));
}

function isLayout(t: Token): boolean {
  return t.kind === "whitespace" || t.kind === "newline";
}

/** `sql` with `;` after its last statement's last token, unless it already ends with one. */
function withFinalSemicolon(sql: string, tokens: readonly Token[]): string {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i] as Token;
    if (!isSignificant(t)) continue;
    return t.text === ";" ? sql : sql.slice(0, t.end) + ";" + sql.slice(t.end);
  }
  return sql;
}
