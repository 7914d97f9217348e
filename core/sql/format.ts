import { format as sqlFormat, type SqlLanguage } from "sql-formatter";
import { AgentServicesError } from "../errors.js";
import type { FormatOptions, FormatResult, ToolOutcome } from "./results.js";
import type { Token } from "./token.js";
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
 */
const FALLBACK_LANGUAGES: readonly SqlLanguage[] = [
  "postgresql",
  "transactsql",
  "mysql",
  "plsql",
  "snowflake",
  "sqlite",
  "sql",
];

/**
 * `format_sql`: re-lays out SQL with sql-formatter, then puts each clause's body on the clause's
 * line when it fits on one (the reference's `SELECT id, name\nFROM users` layout; nested blocks
 * stay expanded). Only whitespace between tokens changes (and keyword case when
 * `uppercase_keywords`), so meaning is kept: `IS NOT NULL` stays, comments stay, and
 * formatting twice gives the same text. `add_semicolon` ends every statement with `;`.
 * Fails (`format failed: …`) only for text it cannot tokenise, such as an unterminated string.
 *
 * @example
 * formatSql("select id,name from users where active=true", { uppercase_keywords: true });
 * // { ok: true, result: { formatted_sql: "SELECT id, name\nFROM users\nWHERE active = true",
 * //   options: { indent_size: 2, uppercase_keywords: true, add_semicolon: false } } }
 */
export function formatSql(
  sql: string,
  options: Partial<FormatOptions> = {},
): ToolOutcome<FormatResult> {
  const opts = resolveOptions(options);
  const tokens = tokenize(sql);
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
  const laidOut = layOut(sql, tokens, opts);
  if (!laidOut.ok) return laidOut;
  let text = compactClauses(laidOut.text, opts.indent_size);
  if (opts.add_semicolon) text = ensureFinalSemicolon(text);
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
function preferredLanguage(tokens: readonly Token[]): SqlLanguage {
  for (const t of tokens) {
    if (t.kind === "line_comment" && t.text.startsWith("#")) return "mysql";
    if (t.kind === "quoted_identifier") {
      if (t.text.startsWith("`")) return "mysql";
      if (t.text.startsWith("[")) return "transactsql";
    }
    if (t.upper === "PRAGMA") return "sqlite";
    if (t.upper === "CONNECT" || t.upper === "PRIOR") return "plsql";
  }
  return "postgresql";
}

function layOut(
  sql: string,
  tokens: readonly Token[],
  opts: FormatOptions,
): { ok: true; text: string } | { ok: false; error: string } {
  const preferred = preferredLanguage(tokens);
  let firstError: unknown;
  for (const language of [preferred, ...FALLBACK_LANGUAGES.filter((l) => l !== preferred)]) {
    try {
      const text = sqlFormat(sql, {
        language,
        tabWidth: opts.indent_size,
        keywordCase: opts.uppercase_keywords ? "upper" : "preserve",
        linesBetweenQueries: 1,
      });
      const checked = sameTokens(tokens, text);
      if (checked !== undefined) return { ok: true, text: checked };
      firstError ??= new Error(`the ${language} layout changed the tokens`);
    } catch (error) {
      firstError ??= error;
    }
  }
  const message = firstError instanceof Error ? firstError.message : String(firstError);
  return { ok: false, error: `format failed: ${message.split("\n")[0] ?? "cannot tokenise"}` };
}

/**
 * The formatted text if it has the same tokens as the source apart from whitespace and keyword
 * case (the guarantee that formatting never changes meaning), else undefined. Boolean literals
 * keep their source spelling: `uppercase_keywords` is about keywords, and `true` is a value.
 */
function sameTokens(source: readonly Token[], text: string): string | undefined {
  const before = source.filter(isSignificantOrComment);
  const after = tokenize(text).filter(isSignificantOrComment);
  if (before.length !== after.length) return undefined;
  let out = "";
  let copied = 0;
  for (let i = 0; i < before.length; i++) {
    const a = before[i] as Token;
    const b = after[i] as Token;
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
  return copied === 0 ? text : out + text.slice(copied);
}

function isSignificantOrComment(t: Token): boolean {
  return t.kind !== "whitespace" && t.kind !== "newline";
}

/** A line that holds only clause words (`SELECT`, `GROUP BY`, `insert into`, `union all`). */
const CLAUSE_LINE = /^\s*[A-Za-z]+(?: [A-Za-z]+)*$/;

/**
 * Joins each clause line with its body when the body is one level deeper throughout (no nested
 * block) and no comment or multi-line token is involved, so joining changes only whitespace.
 * With `indent_size` 0 the levels cannot be told apart, so each statement's lines are joined.
 */
function compactClauses(text: string, indentSize: number): string {
  const lines = text.split("\n");
  const unsafe = unsafeLines(text, lines.length);
  if (indentSize === 0) return joinStatements(lines, unsafe);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const depth = indentOf(line);
    const bodyStart = i + 1;
    let end = bodyStart;
    let flat = !unsafe[i] && CLAUSE_LINE.test(line);
    while (flat && end < lines.length) {
      const next = lines[end] as string;
      if (next.trim() === "" || indentOf(next) <= depth) break;
      if (indentOf(next) !== depth + indentSize || unsafe[end]) flat = false;
      end++;
    }
    if (!flat || end === bodyStart) {
      out.push(line);
      continue;
    }
    out.push([line.trimEnd(), ...lines.slice(bodyStart, end).map((l) => l.trim())].join(" "));
    i = end - 1;
  }
  return out.join("\n");
}

/** Lines that hold a comment or part of a token spanning lines: never join them. */
function unsafeLines(text: string, count: number): boolean[] {
  const unsafe = new Array<boolean>(count).fill(false);
  for (const t of tokenize(text)) {
    if (t.kind === "newline" || t.kind === "whitespace") continue;
    const breaks = countNewlines(t.text);
    const comment = t.kind === "line_comment" || t.kind === "block_comment";
    if (!comment && breaks === 0) continue;
    for (let l = t.line - 1; l <= t.line - 1 + breaks && l < count; l++) unsafe[l] = true;
  }
  return unsafe;
}

function joinStatements(lines: readonly string[], unsafe: readonly boolean[]): string {
  const out: string[] = [];
  let current: string[] = [];
  let currentSafe = true;
  const flush = () => {
    if (current.length === 0) return;
    if (currentSafe) out.push(current.map((l) => l.trim()).join(" "));
    else out.push(...current);
    current = [];
    currentSafe = true;
  };
  lines.forEach((line, i) => {
    if (line.trim() === "") {
      flush();
      out.push(line);
      return;
    }
    current.push(line);
    if (unsafe[i]) currentSafe = false;
  });
  flush();
  return out.join("\n");
}

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

/** Adds `;` after the last statement's last token unless it already ends with one. */
function ensureFinalSemicolon(text: string): string {
  const tokens = tokenize(text);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i] as Token;
    if (!isCode(t)) continue;
    if (t.text === ";") return text;
    return text.slice(0, t.end) + ";" + text.slice(t.end);
  }
  return text;
}
