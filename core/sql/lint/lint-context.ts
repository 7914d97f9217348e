import type { SqlDialect } from "../dialects.js";
import { isSignificant, type Token } from "../token.js";

/** Re-exported for the lint rules: the token model owns the definition. */
export { isSignificant };
import { DEFAULT_LINT_SETTINGS, type LintSettings } from "./lint-options.js";
import { lintTokens } from "./lint-tokens.js";

/** One physical line of the input. */
export interface LintLine {
  /** 1-based line number. */
  readonly number: number;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset just past the content (before `\n`, `\r\n` or `\r`). */
  readonly end: number;
  /** The content without its line break. */
  readonly text: string;
  /** The line begins inside a multi-line string or quoted identifier (its text is data). */
  readonly startsInString: boolean;
  /** The line begins inside a multi-line block comment. */
  readonly startsInComment: boolean;
  /** The line break ending this line belongs to a string or quoted identifier. */
  readonly endsInString: boolean;
}

/**
 * What every rule reads, computed once per `lintSql` call: the source, its tokens and its lines,
 * the dialect it is read in and the rules' settings.
 *
 * @example
 * const ctx = createLintContext("SELECT 1\nFROM t");
 * ctx.lines.length; // 2
 */
export interface LintContext {
  readonly sql: string;
  readonly tokens: readonly Token[];
  readonly lines: readonly LintLine[];
  readonly dialect: SqlDialect;
  readonly settings: LintSettings;
}

/**
 * Builds the {@link LintContext} for `sql` in linear time.
 *
 * @example
 * createLintContext("SELECT 'a\nb'").lines[1]?.startsInString; // true
 */
export function createLintContext(
  sql: string,
  tokens?: readonly Token[],
  settings: LintSettings = DEFAULT_LINT_SETTINGS,
  dialect: SqlDialect = "generic",
): LintContext {
  return buildContext(sql, tokens ?? lintTokens(sql, dialect), settings, dialect);
}

function buildContext(
  sql: string,
  tokens: readonly Token[],
  settings: LintSettings,
  dialect: SqlDialect,
): LintContext {
  const bounds: { start: number; end: number }[] = [];
  let start = 0;
  const n = sql.length;
  for (let i = 0; i < n; i++) {
    const c = sql.charCodeAt(i);
    if (c === 10 || c === 13) {
      bounds.push({ start, end: i });
      if (c === 13 && sql.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  // A final line break ends the last line; it does not open an empty one.
  if (start < n || n === 0) bounds.push({ start, end: n });

  const startsInString = new Uint8Array(bounds.length + 2);
  const startsInComment = new Uint8Array(bounds.length + 2);
  const endsInString = new Uint8Array(bounds.length + 2);
  for (const t of tokens) {
    if (t.kind !== "string" && t.kind !== "quoted_identifier" && t.kind !== "block_comment")
      continue;
    let breaks = 0;
    for (let k = t.start; k < t.end; k++) {
      const c = sql.charCodeAt(k);
      if (c === 10 || (c === 13 && sql.charCodeAt(k + 1) !== 10)) breaks++;
    }
    for (let b = 0; b < breaks; b++) {
      if (t.kind === "block_comment") startsInComment[t.line + b] = 1;
      else {
        startsInString[t.line + b] = 1;
        endsInString[t.line - 1 + b] = 1;
      }
    }
  }
  const lines = bounds.map((b, index): LintLine => ({
    number: index + 1,
    start: b.start,
    end: b.end,
    text: sql.slice(b.start, b.end),
    startsInString: startsInString[index] === 1,
    startsInComment: startsInComment[index] === 1,
    endsInString: endsInString[index] === 1,
  }));
  return { sql, tokens, lines, dialect, settings };
}

/**
 * Number of code points in `text`.
 *
 * @example
 * codePointLength("a😀"); // 2
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!(
      c >= 0xdc00 &&
      c <= 0xdfff &&
      i > 0 &&
      text.charCodeAt(i - 1) >= 0xd800 &&
      text.charCodeAt(i - 1) <= 0xdbff
    ))
      count++;
  }
  return count;
}
