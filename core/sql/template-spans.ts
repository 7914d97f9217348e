import { expectSqlText } from "./sql-text.js";
import type { Token } from "./token.js";

/** A Jinja span of the source: `{{ … }}`, `{% … %}` or `{# … #}`, end exclusive. */
interface TemplateSpan {
  readonly start: number;
  readonly end: number;
  /** `{{ … }}` stands for a value; the other two emit no SQL. */
  readonly expression: boolean;
}

const CLOSERS: Readonly<Record<string, string>> = { "{": "}}", "%": "%}", "#": "#}" };

/**
 * The Jinja spans of `sql` (dbt models), as the template engine finds them: anywhere in the text,
 * from `{{`, `{%` or `{#` to the next `}}`, `%}` or `#}`; an opening without its end is none.
 */
function templateSpans(sql: string): TemplateSpan[] {
  const spans: TemplateSpan[] = [];
  for (let i = sql.indexOf("{"); i !== -1 && i < sql.length - 1; i = sql.indexOf("{", i + 1)) {
    const closer = CLOSERS[sql[i + 1] as string];
    if (closer === undefined) continue;
    const close = sql.indexOf(closer, i + 2);
    if (close === -1) break;
    spans.push({ start: i, end: close + 2, expression: sql[i + 1] === "{" });
    i = close + 1;
  }
  return spans;
}

/** `text` with every character of the spans but line breaks made a space (same offsets). */
function masked(text: string, spans: readonly TemplateSpan[]): string {
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + text.slice(span.start, span.end).replace(/[^\r\n]/g, " ");
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * Lint tokens for text with Jinja markup: `tokenizeText` reads the text with each span blanked
 * out, so a quote or keyword inside the markup is not SQL, then each span outside a string or
 * comment becomes one token, a `parameter` for `{{ … }}` (it stands for a value or a name) and a
 * `block_comment` for `{% … %}` and `{# … #}`. The rules and their fixes never change those
 * kinds, so `sqlsvc fix` leaves the markup as written (it used to upper-case `{% set %}` into
 * `{% SET %}`, which Jinja rejects). Text without markup is tokenised as is.
 *
 * @example
 * templateTokens("SELECT {{ col }} FROM t", tokenize).map((t) => t.kind);
 * // ["keyword", "whitespace", "parameter", "whitespace", "keyword", "whitespace", "identifier"]
 */
export function templateTokens(sql: string, tokenizeText: (text: string) => Token[]): Token[] {
  const spans = templateSpans(expectSqlText(sql));
  if (spans.length === 0) return tokenizeText(sql);
  const out: Token[] = [];
  let next = 0; // the first span not yet emitted or skipped
  for (const token of tokenizeText(masked(sql, spans))) {
    while (next < spans.length && (spans[next] as TemplateSpan).end <= token.start) next++;
    const span = spans[next];
    if (span === undefined || span.start >= token.end) {
      out.push(token);
    } else if (token.kind !== "whitespace" && token.kind !== "newline") {
      // A string or comment the span lies in: its own text, markup included.
      const text = sql.slice(token.start, token.end);
      out.push({ ...token, text, upper: text });
    } else {
      splitAround(sql, token, spans, next, out);
    }
  }
  return out;
}

/** The parts of a blank `token` outside the spans, and each span that starts in it. */
function splitAround(
  sql: string,
  token: Token,
  spans: readonly TemplateSpan[],
  first: number,
  out: Token[],
): void {
  let at = token.start;
  for (let k = first; k < spans.length; k++) {
    const span = spans[k] as TemplateSpan;
    if (span.start >= token.end) break;
    if (span.start >= at) {
      // The span starts here (a blank run has no line break before its end).
      if (span.start > at) out.push(piece(sql, token, at, span.start));
      const column = token.column + codePoints(sql.slice(token.start, span.start));
      const text = sql.slice(span.start, span.end);
      const kind = span.expression ? "parameter" : "block_comment";
      out.push({
        kind,
        text,
        start: span.start,
        end: span.end,
        line: token.line,
        column,
        upper: text,
      });
    }
    at = Math.max(at, span.end);
  }
  if (at < token.end) out.push(piece(sql, token, at, token.end));
}

/** The part `start..end` of the blank `token`, placed after what precedes it in `sql`. */
function piece(sql: string, token: Token, start: number, end: number): Token {
  const text = sql.slice(start, end);
  if (start === token.start) return { ...token, text, end, upper: text };
  const before = sql.slice(0, start);
  const breaks = before.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
  const column = codePoints(before.slice(lineStart)) + 1;
  return { ...token, text, start, end, line: breaks + 1, column, upper: text };
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
