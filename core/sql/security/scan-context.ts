import { SQL_KEYWORDS } from "../keywords.js";
import type { Token } from "../token.js";
import type { ConstantTerm } from "./constant-term.js";
import { tokenize } from "../tokenizer.js";

/** Words an attacker may split with inline comments (`UN/**\/ION`) to slip past filters. */
const SPLITTABLE: ReadonlySet<string> = new Set([
  "UNION", "SELECT", "INSERT", "UPDATE", "DELETE", "DROP", "FROM", "WHERE", "SLEEP", "BENCHMARK",
  "WAITFOR", "EXEC", "EXECUTE", "INFORMATION_SCHEMA", "CONCAT", "CHAR", "OR", "AND", "NULL",
  "TRUNCATE", "ALTER", "TABLE", "INTO", "OUTFILE", "LOAD_FILE", "XP_CMDSHELL", "VERSION", "USER",
  "DATABASE", "PASSWORD", "ORDER", "GROUP", "HAVING", "LIMIT", "LIKE", "SUBSTRING", "ASCII",
]); // prettier-ignore

/** Longest keyword worth rebuilding from comment-separated pieces (INFORMATION_SCHEMA is 18). */
const MAX_SPLIT = 24;

/** A keyword rebuilt from pieces separated by inline comments. */
export interface SplitKeyword {
  readonly upper: string;
  /** The source text, comments included (`UN/**\/ION`). */
  readonly source: string;
}

/** A MySQL conditional comment (`/*!50000 UNION *\/`), whose body MySQL executes as code. */
export interface ConditionalComment {
  readonly token: Token;
  /** Significant tokens of the body, with offsets into the whole input. */
  readonly body: readonly Token[];
}

/** A statement as a half-open range of indices into {@link ScanContext.sig}, without its `;`. */
export interface StatementRange {
  readonly from: number;
  readonly to: number;
}

/**
 * What every detector reads, built once per scan: all tokens, the significant ones (comments and
 * whitespace dropped, MySQL conditional comments opened, comment-split keywords joined), their
 * parenthesis depth and the statements.
 *
 * @example
 * const ctx = createScanContext("SELECT 1 /*!UNION*\/ SELECT 2");
 * ctx.sig.map((t) => t.upper); // ["SELECT", "1", "UNION", "SELECT", "2"]
 */
export interface ScanContext {
  readonly sql: string;
  readonly tokens: readonly Token[];
  readonly sig: readonly Token[];
  /** Parenthesis depth before each significant token. */
  readonly depth: Int32Array;
  readonly statements: readonly StatementRange[];
  readonly conditionalComments: readonly ConditionalComment[];
  readonly splitKeywords: readonly SplitKeyword[];
  /** Results several detectors share, computed on first use (`condition-terms.ts`, `signals.ts`). */
  readonly memo: ScanMemo;
}

/** Shared intermediate results of one scan, filled lazily. */
export interface ScanMemo {
  terms?: readonly ConstantTerm[];
  truncation?: boolean;
}

function isWord(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === "identifier" || token.kind === "keyword");
}

function withOffset(token: Token, offset: number): Token {
  return { ...token, start: token.start + offset, end: token.end + offset };
}

/**
 * Builds the {@link ScanContext} for `sql` in linear time.
 *
 * @example
 * createScanContext("SELECT 1; SELECT 2").statements.length; // 2
 */
export function createScanContext(
  sql: string,
  tokens: readonly Token[] = tokenize(sql),
): ScanContext {
  const sig: Token[] = [];
  const conditionalComments: ConditionalComment[] = [];
  const splitKeywords: SplitKeyword[] = [];

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const kind = token.kind;
    if (kind === "whitespace" || kind === "newline" || kind === "line_comment") continue;
    if (kind === "block_comment") {
      if (token.text.startsWith("/*!")) {
        let bodyStart = token.start + 3;
        while (
          bodyStart < token.end &&
          sql.charCodeAt(bodyStart) >= 48 &&
          sql.charCodeAt(bodyStart) <= 57
        )
          bodyStart++;
        const bodyEnd = token.unterminated === true ? token.end : token.end - 2;
        const body = tokenize(sql.slice(bodyStart, Math.max(bodyStart, bodyEnd)))
          .filter(
            (t) =>
              t.kind !== "whitespace" &&
              t.kind !== "newline" &&
              t.kind !== "line_comment" &&
              t.kind !== "block_comment",
          )
          .map((t) => withOffset(t, bodyStart));
        conditionalComments.push({ token, body });
        for (const t of body) sig.push(t);
      }
      continue;
    }
    if (isWord(token) && tokens[i + 1]?.kind === "block_comment" && isWord(tokens[i + 2])) {
      // Join `WORD/**/WORD/**/WORD` when the pieces spell a keyword (the longest such prefix).
      // Keywords are short, so a chain is followed at most MAX_SPLIT characters: linear overall.
      let j = i;
      let upper = token.upper;
      let best = -1;
      let bestUpper = "";
      while (
        upper.length <= MAX_SPLIT &&
        tokens[j + 1]?.kind === "block_comment" &&
        !(tokens[j + 1] as Token).text.startsWith("/*!") &&
        isWord(tokens[j + 2])
      ) {
        j += 2;
        upper += (tokens[j] as Token).upper;
        if (SPLITTABLE.has(upper) || SQL_KEYWORDS.has(upper)) {
          best = j;
          bestUpper = upper;
        }
      }
      if (best > i) {
        const last = tokens[best] as Token;
        const source = sql.slice(token.start, last.end);
        splitKeywords.push({ upper: bestUpper, source });
        sig.push({ ...token, kind: "keyword", text: bestUpper, upper: bestUpper, end: last.end });
        i = best;
        continue;
      }
    }
    sig.push(token);
  }

  const depth = new Int32Array(sig.length);
  const statements: StatementRange[] = [];
  let level = 0;
  let from = 0;
  for (let k = 0; k < sig.length; k++) {
    depth[k] = level;
    const text = (sig[k] as Token).text;
    if (text === "(") level++;
    else if (text === ")") level = Math.max(0, level - 1);
    else if (text === ";" && level === 0) {
      if (k > from) statements.push({ from, to: k });
      from = k + 1;
    }
  }
  if (sig.length > from) statements.push({ from, to: sig.length });
  return { sql, tokens, sig, depth, statements, conditionalComments, splitKeywords, memo: {} };
}

/**
 * The source-like text of `sig[from..to)`: token texts joined with one space where the source had
 * a gap. Used in finding descriptions.
 *
 * @example
 * spanText(ctx.sig, 0, 3); // "1 = 1"
 */
export function spanText(sig: readonly Token[], from: number, to: number): string {
  let text = "";
  for (let k = from; k < to; k++) {
    const t = sig[k] as Token;
    if (k > from && t.start !== (sig[k - 1] as Token).end) text += " ";
    text += t.text;
  }
  return text;
}
