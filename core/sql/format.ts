import {
  formatDialect,
  mysql,
  plsql,
  postgresql,
  snowflake,
  sql as standardSql,
  sqlite,
  transactsql,
  type DialectOptions,
} from "sql-formatter";
import { AgentServicesError } from "../errors.js";
import type { FormatOptions, FormatResult, ToolOutcome } from "./results.js";
import type { Token } from "./token.js";
import { compactClauses } from "./clause-layout.js";
import { plainLayout } from "./plain-layout.js";
import { tokenize } from "./tokenizer.js";

/** The options of `format_sql` when the caller gives none. */
export const DEFAULT_FORMAT_OPTIONS: FormatOptions = {
  indent_size: 2,
  uppercase_keywords: false,
  add_semicolon: false,
};

/** Largest accepted `indent_size`. */
export const MAX_INDENT_SIZE = 16;

/**
 * Languages tried when the preferred one cannot tokenise the text. PostgreSQL's is the broadest
 * (`::`, `$1`, dollar quoting, JSON operators); the others cover `[names]`, backticks, `#` comments.
 * The dialect objects are passed as they are (`formatDialect`), so sql-formatter's per-object
 * cache of its tokenizer always hits.
 */
const FALLBACK_LANGUAGES: readonly DialectOptions[] = [
  postgresql,
  transactsql,
  mysql,
  plsql,
  snowflake,
  sqlite,
  standardSql,
];

/**
 * `format_sql`: re-lays out SQL with sql-formatter, then puts each clause's body on the clause's
 * line when it fits on one (the reference's `SELECT id, name\nFROM users` layout; nested blocks
 * stay expanded). Only whitespace between tokens changes (and keyword case when
 * `uppercase_keywords`), so meaning is kept: `IS NOT NULL` stays, comments stay, and
 * formatting twice gives the same text. `add_semicolon` ends every statement with `;`. Text the
 * formatter's grammar rejects gets a plain layout (whitespace normalised, keywords cased).
 * Fails (`format failed: …`) only for text it cannot tokenise, such as an unterminated string,
 * or nesting deeper than {@link MAX_FORMAT_DEPTH} parentheses.
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
): ToolOutcome<FormatResult> {
  const opts = resolveOptions(options);
  // analyze_sql passes the tokens it already has for `sql`.
  const tokens = sqlTokens ?? tokenize(sql);
  const unterminated = tokens.find((t) => t.unterminated === true);
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
  if (!tokens.some(isCode)) {
    // Nothing but comments and blanks: there is nothing to lay out.
    return { ok: true, result: { formatted_sql: sql.trim(), options: opts } };
  }
  // The semicolon goes in before the layout, so the layout treats it like one the user wrote
  // (and a second run sees the same input).
  const source = opts.add_semicolon ? withFinalSemicolon(sql, tokens) : sql;
  const sourceTokens = source === sql ? tokens : tokenize(source);
  const laidOut = layOut(source, sourceTokens, opts);
  const text =
    laidOut !== undefined
      ? compactClauses(laidOut.text, opts.indent_size, laidOut.tokens)
      : plainLayout(sourceTokens, opts.uppercase_keywords);
  return { ok: true, result: { formatted_sql: text, options: opts } };
}

/**
 * Deepest parenthesis nesting the formatter takes on: its layout cost grows with the square of
 * the depth (~0.1 s at 100 levels, seconds at 1,000) and it blocks the event loop meanwhile.
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

function isCode(t: Token): boolean {
  return (
    t.kind !== "whitespace" &&
    t.kind !== "newline" &&
    t.kind !== "line_comment" &&
    t.kind !== "block_comment"
  );
}

/** The language whose tokenizer matches the text's features best. */
function preferredLanguage(tokens: readonly Token[]): DialectOptions {
  for (const t of tokens) {
    if (t.kind === "line_comment" && t.text.startsWith("#")) return mysql;
    if (t.kind === "quoted_identifier") {
      if (t.text.startsWith("`")) return mysql;
      if (t.text.startsWith("[")) return transactsql;
    }
    if (t.upper === "PRAGMA") return sqlite;
    if (t.upper === "CONNECT" || t.upper === "PRIOR") return plsql;
  }
  return postgresql;
}

/** A layout that passed the guard, with its tokens (the clause layout reuses them). */
interface LaidOut {
  readonly text: string;
  readonly tokens: readonly Token[];
}

/**
 * sql-formatter's layout in the first language that both parses the text and keeps its tokens,
 * or undefined when none does (its grammar rejects some text our tokenizer reads fine).
 */
function layOut(sql: string, tokens: readonly Token[], opts: FormatOptions): LaidOut | undefined {
  const preferred = preferredLanguage(tokens);
  const config = {
    tabWidth: opts.indent_size,
    keywordCase: opts.uppercase_keywords ? ("upper" as const) : ("preserve" as const),
    linesBetweenQueries: 1,
  };
  for (const dialect of [preferred, ...FALLBACK_LANGUAGES.filter((l) => l !== preferred)]) {
    let text: string;
    try {
      text = formatDialect(sql, { ...config, dialect });
    } catch {
      continue;
    }
    const checked = sameTokens(tokens, text);
    if (checked !== undefined) return checked;
  }
  return undefined;
}

/**
 * The formatted text and its tokens if it has the same tokens as the source apart from
 * whitespace and keyword case (the guarantee that formatting never changes meaning), else
 * undefined. Boolean literals keep their source spelling: `uppercase_keywords` is about keywords,
 * and `true` is a value. Respelling a boolean changes only letter case, so the tokens stay valid
 * for the returned text (same offsets and lines).
 */
function sameTokens(source: readonly Token[], text: string): LaidOut | undefined {
  const after = tokenize(text);
  let out = "";
  let copied = 0;
  let j = 0;
  // Two cursors over the source's and the layout's tokens, skipping layout (no filtered copies).
  for (const a of source) {
    if (isLayout(a)) continue;
    while (j < after.length && isLayout(after[j] as Token)) j++;
    const b = after[j++];
    if (b === undefined) return undefined;
    if (a.text === b.text) continue;
    const wordLike = a.kind === "keyword" || a.kind === "identifier";
    if (wordLike && a.upper === b.upper) {
      if (a.upper === "TRUE" || a.upper === "FALSE") {
        out += text.slice(copied, b.start) + a.text;
        copied = b.end;
      }
      continue;
    }
    const comment = a.kind === "line_comment" || a.kind === "block_comment";
    if (comment && a.text.trimEnd() === b.text.trimEnd()) continue;
    return undefined;
  }
  while (j < after.length && isLayout(after[j] as Token)) j++;
  if (j !== after.length) return undefined;
  return { text: copied === 0 ? text : out + text.slice(copied), tokens: after };
}

function isLayout(t: Token): boolean {
  return t.kind === "whitespace" || t.kind === "newline";
}

/** `sql` with `;` after its last statement's last token, unless it already ends with one. */
function withFinalSemicolon(sql: string, tokens: readonly Token[]): string {
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i] as Token;
    if (!isCode(t)) continue;
    return t.text === ";" ? sql : sql.slice(0, t.end) + ";" + sql.slice(t.end);
  }
  return sql;
}
