import type { Token } from "../../token.js";
import { forEachConstantTerm } from "../condition-terms.js";
import type { Detector } from "../detector.js";
import type { ScanContext } from "../scan-context.js";
import { makeFinding } from "../patterns.js";
import { spanText } from "../scan-context.js";
import {
  fingerprintComparison,
  isComparisonToken,
  isFingerprintAt,
  isSensitiveAt,
  isSystemTableAt,
  matchingParen,
} from "../signals.js";

/** Functions used to read data one character or one bit at a time. */
const PROBES: ReadonlySet<string> = new Set([
  "ASCII", "ORD", "SUBSTRING", "SUBSTR", "MID", "LENGTH", "LEN", "CHAR_LENGTH", "HEX", "UNICODE",
  "LEFT", "RIGHT", "BIT_LENGTH", "INSTR", "LOCATE", "IF", "IIF",
]); // prettier-ignore
const CONSTANT_KINDS: ReadonlySet<string> = new Set(["number", "string"]);
const SCAN_LIMIT = 256;

function hasSignal(sig: readonly Token[], from: number, to: number, sensitive: boolean): boolean {
  for (let j = from; j < to; j++) {
    if (isFingerprintAt(sig, j) || isSystemTableAt(sig, j) || (sensitive && isSensitiveAt(sig, j)))
      return true;
  }
  return false;
}

/**
 * Blind probes that ask the database yes/no questions: constant conditions after AND
 * (`… AND 1=2`, `' AND 'a'='b`), always-false conditions after OR, `CASE WHEN 1=1` inside a
 * condition, character probes over server secrets (`AND ASCII(SUBSTRING(version(),1,1))>52`) and
 * subqueries over credentials or catalogs compared with a constant
 * (`AND (SELECT SUBSTRING(password,1,1) FROM users LIMIT 1)='a'`).
 *
 * @example
 * scanSql("SELECT * FROM items WHERE id = 5 AND 1=2").findings[0]?.pattern; // "BOOLEAN_BASED"
 */
export const booleanBasedDetector: Detector = {
  family: "boolean-based",
  patterns: ["BOOLEAN_BASED"],
  detect(ctx, emit) {
    forEachConstantTerm(ctx, (term) => {
      const text = spanText(ctx.sig, term.from, term.to);
      if (
        (term.before === "AND" || term.before === "&&") &&
        (term.clause === "WHERE" || term.clause === "HAVING")
      ) {
        emit(
          makeFinding(
            "BOOLEAN_BASED",
            "HIGH",
            `Constant condition used as a boolean probe: AND ${text}`,
          ),
        );
      } else if (term.before === "OR" && term.value === "false") {
        emit(
          makeFinding(
            "BOOLEAN_BASED",
            "HIGH",
            `Always-false condition used as a boolean probe: OR ${text}`,
          ),
        );
      } else if (term.clause === "WHEN" && term.before === "WHEN" && term.nestedInCondition) {
        emit(
          makeFinding(
            "BOOLEAN_BASED",
            "HIGH",
            `Conditional probe inside a condition: CASE WHEN ${text}`,
          ),
        );
      }
    });

    const { sig, depth } = ctx;
    for (const statement of ctx.statements) {
      let inCondition = false;
      for (let k = statement.from; k < statement.to; k++) {
        const t = sig[k] as Token;
        if (t.kind === "keyword" && (t.upper === "WHERE" || t.upper === "HAVING"))
          inCondition = true;
        if (!inCondition) continue;
        // `AND current_user = 'postgres'`, `AND @@version LIKE '8%'` (issue 8).
        if (fingerprintComparison(sig, depth, k)?.kind === "string") {
          emit(
            makeFinding(
              "BOOLEAN_BASED",
              "HIGH",
              `Server fingerprint compared with a constant: ${spanText(sig, k, Math.min(statement.to, k + 6))}`,
            ),
          );
          continue;
        }
        if (t.kind === "keyword" && t.upper === "EXISTS" && isJunction(sig[k - 1])) {
          const close = existenceProbeEnd(ctx, statement.from, k);
          if (close > 0) {
            emit(
              makeFinding(
                "BOOLEAN_BASED",
                "HIGH",
                `Existence probe over credentials or catalogs: ${spanText(sig, k, Math.min(close + 1, k + 12))}`,
              ),
            );
            k = close;
          }
          continue;
        }
        if (sig[k + 1]?.text !== "(") continue;
        if ((t.kind === "identifier" || t.kind === "keyword") && PROBES.has(t.upper)) {
          const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
          if (
            close > 0 &&
            (hasSignal(sig, k + 2, close, false) || hasSubquery(sig, k + 2, close))
          ) {
            emit(
              makeFinding(
                "BOOLEAN_BASED",
                "HIGH",
                `Character probe over hidden data: ${spanText(sig, k, Math.min(close + 1, k + 12))}`,
              ),
            );
            k = close;
          }
        } else if (
          sig[k + 2]?.upper === "SELECT" &&
          (isComparisonToken(t) || t.upper === "AND" || t.upper === "OR")
        ) {
          const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
          if (close < 0) continue;
          const comparedWithConstant =
            (isComparisonToken(sig[close + 1]) && CONSTANT_KINDS.has(sig[close + 2]?.kind ?? "")) ||
            (isComparisonToken(t) && CONSTANT_KINDS.has(sig[k - 1]?.kind ?? ""));
          if (comparedWithConstant && hasSignal(sig, k + 2, close, true)) {
            emit(
              makeFinding(
                "BOOLEAN_BASED",
                "HIGH",
                `Subquery over credentials or catalogs compared with a constant: ${spanText(sig, k + 1, Math.min(close + 1, k + 12))}`,
              ),
            );
            k = close;
          }
        }
      }
    }
  },
};

function hasSubquery(sig: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < to; j++)
    if (sig[j]?.kind === "keyword" && sig[j]?.upper === "SELECT") return true;
  return false;
}

function isJunction(t: Token | undefined): boolean {
  return t !== undefined && (t.upper === "AND" || t.upper === "OR" || t.text === "&&");
}

/**
 * End of `EXISTS (SELECT …)` at `k` when the subquery probes hidden data: it reads catalogs the
 * query before it doesn't (`AND EXISTS(SELECT 1 FROM information_schema.tables WHERE …)`) or
 * compares a credential with a constant (`AND EXISTS(SELECT … WHERE password LIKE 'a%')`); else -1.
 * An application's own `EXISTS` compares with columns or parameters (`api_key_hash = $2`).
 */
function existenceProbeEnd(ctx: ScanContext, statementFrom: number, k: number): number {
  const { sig, depth } = ctx;
  if (sig[k + 1]?.text !== "(" || sig[k + 2]?.upper !== "SELECT") return -1;
  const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
  if (close < 0) return -1;
  let catalogBefore = false;
  for (let j = Math.max(statementFrom, k - SCAN_LIMIT); j < k && !catalogBefore; j++) {
    catalogBefore = isSystemTableAt(sig, j);
  }
  for (let j = k + 3; j < close; j++) {
    if (!catalogBefore && isSystemTableAt(sig, j)) return close;
    if (
      isSensitiveAt(sig, j) &&
      isComparisonToken(sig[j + 1]) &&
      CONSTANT_KINDS.has(sig[j + 2]?.kind ?? "")
    ) {
      return close;
    }
  }
  return -1;
}
