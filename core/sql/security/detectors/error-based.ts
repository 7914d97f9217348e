import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { isFingerprintAt, isSensitiveAt, isSystemTableAt, matchingParen } from "../signals.js";

/** Functions whose error messages echo their argument (MySQL XML functions, GTID, Oracle). */
const LEAKING_CALLS: ReadonlySet<string> = new Set([
  "EXTRACTVALUE",
  "UPDATEXML",
  "GTID_SUBSET",
  "NAME_CONST",
  "XMLTYPE",
]);
const SCAN_LIMIT = 128;

/**
 * Error-based extraction, where the database error message carries the stolen data:
 * `EXTRACTVALUE(1, CONCAT(0x7e, version()))`, `UPDATEXML(…)`, `FLOOR(RAND(0)*2)` duplicate-key
 * errors, `EXP(~(SELECT …))` overflows, and `CONVERT(int, @@version)` / `CAST(… AS int)` over
 * server secrets, catalogs or credentials, and `1/0` division-by-zero probes.
 *
 * @example
 * scanSql("SELECT * FROM t WHERE id = 1 AND EXTRACTVALUE(1, CONCAT(0x7e, version()))").findings.some((f) => f.pattern === "ERROR_BASED"); // true
 */
export const errorBasedDetector: Detector = {
  family: "error-based",
  patterns: ["ERROR_BASED"],
  detect(ctx, emit) {
    const { sig, depth } = ctx;
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      if (t.text === "/" && sig[k + 1]?.text === "0" && sig[k - 1]?.kind === "number") {
        // `CASE WHEN <guess> THEN 1 ELSE 1/0 END`: the error answers the guess.
        emit(
          makeFinding("ERROR_BASED", "HIGH", `Division-by-zero probe: ${sig[k - 1]?.text ?? ""}/0`),
        );
        continue;
      }
      if ((t.kind !== "identifier" && t.kind !== "keyword") || sig[k + 1]?.text !== "(") continue;
      const u = t.upper;
      if (LEAKING_CALLS.has(u)) {
        const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
        if (u === "XMLTYPE" && !hasSecret(sig, k + 2, close)) continue;
        emit(makeFinding("ERROR_BASED", "HIGH", `Pattern detected: ${t.text}(`));
      } else if (
        u === "FLOOR" &&
        sig[k + 2]?.upper === "RAND" &&
        sig[k + 4]?.text === "0" &&
        sig[k + 6]?.text === "*"
      ) {
        emit(makeFinding("ERROR_BASED", "HIGH", "Pattern detected: FLOOR(RAND(0)*2)"));
      } else if (u === "EXP" && sig[k + 2]?.text === "~") {
        emit(makeFinding("ERROR_BASED", "HIGH", `Pattern detected: ${t.text}(~`));
      } else if (u === "CONVERT" || u === "CAST") {
        const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
        if (close > 0 && toNumber(sig, k, close) && hasSecret(sig, k + 2, close)) {
          emit(
            makeFinding(
              "ERROR_BASED",
              "HIGH",
              `Type-conversion error over server data: ${t.text}(…)`,
            ),
          );
          k = close;
        }
      }
    }
  },
};

/** Types whose conversion fails, with the text in the message, when given text. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set([
  "INT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "NUMERIC", "DECIMAL", "FLOAT", "REAL",
  "NUMBER", "SIGNED", "UNSIGNED",
]); // prettier-ignore

/** True for `CONVERT(<numeric type>, …)` and `CAST(… AS <numeric type>)` at `k`. */
function toNumber(sig: readonly Token[], k: number, close: number): boolean {
  const name = (sig[k] as Token).upper;
  if (name === "CONVERT") return NUMERIC_TYPES.has(sig[k + 2]?.upper ?? "");
  return sig[close - 2]?.upper === "AS" && NUMERIC_TYPES.has(sig[close - 1]?.upper ?? "");
}

function hasSecret(sig: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    if (isFingerprintAt(sig, j) || isSystemTableAt(sig, j) || isSensitiveAt(sig, j)) return true;
  }
  return false;
}
