import { isSignificant, type Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";

/** SQL words that encoded or concatenated text should never need to spell. */
const ATTACK_WORDS = [
  "SELECT", "UNION", "DROP", "INSERT", "DELETE", "UPDATE", "EXEC", "EXECUTE", "SLEEP", "WAITFOR",
  "XP_CMDSHELL", "SHUTDOWN", "TRUNCATE", "ALTER", "CREATE", "INFORMATION_SCHEMA", "BENCHMARK",
  "DECLARE",
]; // prettier-ignore
/** Words that make a short MySQL conditional comment an attack rather than a dump directive. */
const HIDDEN_WORDS: ReadonlySet<string> = new Set([
  "UNION", "SELECT", "OR", "AND", "SLEEP", "BENCHMARK", "INFORMATION_SCHEMA", "CONCAT", "CHAR",
  "FROM", "WHERE", "NULL", "XOR",
]); // prettier-ignore
const CHAR_CALLS: ReadonlySet<string> = new Set(["CHAR", "CHR", "NCHAR"]);
const CONCAT_CALLS: ReadonlySet<string> = new Set(["CONCAT", "CONCAT_WS"]);
const SHORT_BODY = 8;
const MIN_HEX_BYTES = 4;
const MIN_CHAR_LETTERS = 3;

/** Characters other than spaces and control characters (so CHAR(13)+CHAR(10) counts 0). */
function visibleLength(text: string): number {
  let n = 0;
  for (const c of text) if ((c.codePointAt(0) as number) > 32) n++;
  return n;
}

function isWordChar(c: string): boolean {
  return /[A-Z0-9_]/.test(c);
}

/** The attack word spelled by `joined` (upper-case) but by none of `pieces` alone, if any. */
function builtWord(joined: string, pieces: readonly string[]): string | undefined {
  for (const word of ATTACK_WORDS) {
    let at = joined.indexOf(word);
    while (at >= 0) {
      const before = at === 0 ? "" : joined.charAt(at - 1);
      const after = joined.charAt(at + word.length);
      // The word must be followed by more SQL (`SELECT *`, `SLEEP(5)`): 'Up' + 'date' is prose.
      const continues = after === " " || after === "(" || after === "\t" || after === "\n";
      if (!isWordChar(before) && continues && !pieces.some((p) => p.includes(word))) return word;
      at = joined.indexOf(word, at + 1);
    }
  }
  return undefined;
}

function stringContent(t: Token): string | undefined {
  if (t.kind !== "string") return undefined;
  const text = t.text;
  const from = text.startsWith("'") ? 1 : /^n'/i.test(text) ? 2 : -1;
  if (from < 0) return undefined;
  return text.slice(from, t.unterminated === true ? undefined : -1).replaceAll("''", "'");
}

function decodeHex(hex: string): string | undefined {
  if (hex.length % 2 !== 0 || hex.length < MIN_HEX_BYTES * 2) return undefined;
  let text = "";
  for (let i = 0; i < hex.length; i += 2) {
    const code = Number.parseInt(hex.slice(i, i + 2), 16);
    if (code < 0x20 || code > 0x7e) return undefined;
    text += String.fromCharCode(code);
  }
  return /[a-z]/i.test(text) ? text : undefined;
}

/** Decoded text of `CHAR(n, …)` at `k`, and the index after its `)`; undefined when not numeric. */
function charCall(sig: readonly Token[], k: number): { text: string; next: number } | undefined {
  const name = sig[k];
  if (name === undefined || !CHAR_CALLS.has(name.upper) || sig[k + 1]?.text !== "(")
    return undefined;
  let text = "";
  let j = k + 2;
  for (;;) {
    const arg = sig[j];
    if (arg?.kind !== "number") return undefined;
    const code = arg.text.toLowerCase().startsWith("0x")
      ? Number.parseInt(arg.text.slice(2), 16)
      : Number(arg.text);
    if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) return undefined;
    text += String.fromCodePoint(code);
    const sep = sig[j + 1]?.text;
    if (sep === ")") return { text, next: j + 2 };
    if (sep !== ",") return undefined;
    j += 2;
  }
}

/** The hex digits of `0x1F` or `X'1F'`, else undefined. */
function hexDigitsOf(t: Token): string | undefined {
  if (t.kind === "number" && /^0x/i.test(t.text)) return t.text.slice(2);
  if (t.kind === "string" && /^x'/i.test(t.text)) return t.text.slice(2, -1);
  return undefined;
}

/**
 * Filter evasion: keywords split by inline comments (`UN/**\/ION`), short MySQL conditional
 * comments hiding SQL (`/*!50000UNION*\/`), comments used as whitespace (`UNION/**\/SELECT`), hex
 * literals that spell text (`0x61646d696e`), `CHAR(…)` sequences that spell text, and string
 * concatenation that builds a SQL keyword (`'SEL' || 'ECT'`, `CONCAT('DR', 'OP')`). `CHAR(13)` +
 * `CHAR(10)` line breaks and binary hex values are not reported.
 *
 * @example
 * scanSql("SELECT * FROM t WHERE id = 1 UN/**\/ION SELECT 1").findings.some((f) => f.pattern === "OBFUSCATION"); // true
 */
export const obfuscationDetector: Detector = {
  family: "obfuscation",
  patterns: ["OBFUSCATION"],
  detect(ctx, emit) {
    for (const split of ctx.splitKeywords) {
      emit(
        makeFinding("OBFUSCATION", "HIGH", `Keyword split by an inline comment: ${split.source}`),
      );
    }
    for (const comment of ctx.conditionalComments) {
      if (
        comment.body.length <= SHORT_BODY &&
        comment.body.some((t) => t.kind === "keyword" && HIDDEN_WORDS.has(t.upper))
      ) {
        emit(
          makeFinding(
            "OBFUSCATION",
            "HIGH",
            `MySQL conditional comment hides SQL: ${comment.token.text.slice(0, 60)}`,
          ),
        );
      }
    }

    const tokens = ctx.tokens;
    for (let i = 1; i + 1 < tokens.length; i++) {
      const t = tokens[i] as Token;
      if (t.kind !== "block_comment" || t.text.startsWith("/*!") || t.text.startsWith("/*+"))
        continue;
      const before = tokens[i - 1] as Token;
      const after = tokens[i + 1] as Token;
      // Glued: nothing but another comment between the words (`UN/**/ION`, `UN/**//**/ION`).
      const glued = (x: Token): boolean => isSignificant(x) || x.kind === "block_comment";
      if (!glued(before) || !glued(after)) continue;
      if (before.kind !== "keyword" && after.kind !== "keyword") continue;
      if (
        (before.kind === "keyword" || before.kind === "identifier") &&
        (after.kind === "keyword" || after.kind === "identifier") &&
        ctx.splitKeywords.length > 0
      )
        continue;
      emit(
        makeFinding(
          "OBFUSCATION",
          "HIGH",
          `Inline comment used as whitespace: ${before.text}${t.text}${after.text}`,
        ),
      );
      break;
    }

    const sig = ctx.sig;
    let pieces: string[] = [];
    let decoded = "";
    let expectPiece = false;
    const concatDepths: number[] = [];
    const flush = (): void => {
      if (visibleLength(decoded) >= MIN_CHAR_LETTERS) {
        emit(
          makeFinding(
            "OBFUSCATION",
            "HIGH",
            `CHAR() sequence spells text: '${decoded.slice(0, 60)}'`,
          ),
        );
      } else if (pieces.length >= 2) {
        const joined = pieces.join("").toUpperCase();
        const word = builtWord(
          joined,
          pieces.map((p) => p.toUpperCase()),
        );
        if (word !== undefined) {
          emit(
            makeFinding(
              "OBFUSCATION",
              "HIGH",
              `Concatenation builds the keyword ${word}: '${pieces.join("").slice(0, 60)}'`,
            ),
          );
        }
      }
      pieces = [];
      decoded = "";
    };
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      const d = ctx.depth[k] ?? 0;
      const digits = hexDigitsOf(t);
      const text = digits === undefined ? undefined : decodeHex(digits);
      if (text !== undefined) {
        emit(
          makeFinding(
            "OBFUSCATION",
            "HIGH",
            `Hex literal spells text: ${t.text.slice(0, 40)} ('${text.slice(0, 40)}')`,
          ),
        );
      }

      const content = stringContent(t);
      const call = content === undefined ? charCall(sig, k) : undefined;
      if (content !== undefined || call !== undefined) {
        if (!expectPiece) flush();
        pieces.push(content ?? call?.text ?? "");
        if (call !== undefined) {
          decoded += call.text;
          k = call.next - 1;
        }
        expectPiece = false;
        continue;
      }
      if (
        (t.kind === "identifier" || t.kind === "keyword") &&
        CONCAT_CALLS.has(t.upper) &&
        sig[k + 1]?.text === "("
      ) {
        flush();
        concatDepths.push(d + 1);
        k++;
        expectPiece = true;
        continue;
      }
      if (
        t.text === "||" ||
        t.text === "+" ||
        (t.text === "," && concatDepths[concatDepths.length - 1] === d)
      ) {
        expectPiece = true;
        continue;
      }
      if (t.text === ")" && concatDepths[concatDepths.length - 1] === d) {
        concatDepths.pop();
        continue;
      }
      expectPiece = false;
      flush();
    }
    flush();
  },
};
