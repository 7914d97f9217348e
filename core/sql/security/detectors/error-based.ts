import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { spanText } from "../scan-context.js";
import {
  fingerprintComparison,
  isFingerprintAt,
  isSensitiveAt,
  isSystemTableAt,
  matchingParen,
} from "../signals.js";

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
 * Oracle package functions whose error message echoes their argument, as `package.function`
 * (matched at the end of a qualified call, so `SYS.` or `CTXSYS.` prefixes do not matter).
 */
const LEAKING_PACKAGE_CALLS: readonly string[] = [
  "DRITHSX.SN", "CTX_REPORT.TOKEN_TYPE", "ORD_DICOM.GETMAPPINGXPATH", "DBMS_UTILITY.SQLID_TO_SQLHASH",
  "DBMS_XDB_VERSION.CHECKIN", "DBMS_XDB_VERSION.MAKEVERSIONED", "DBMS_XDB_VERSION.UNCHECKOUT",
  "DBMS_AW_XML.READAWMETADATA",
]; // prettier-ignore

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
      if (fingerprintComparison(sig, depth, k)?.kind === "number") {
        // `@@version = 1`, `1 = db_name()`: SQL Server fails converting the text to a number
        // and prints it (issue 8).
        const shown = spanText(sig, Math.max(0, k - 2), Math.min(sig.length, k + 3));
        emit(
          makeFinding("ERROR_BASED", "HIGH", `Server fingerprint compared with a number: ${shown}`),
        );
        continue;
      }
      if (t.kind === "identifier" && sig[k + 1]?.text === ".") {
        const call = leakingPackageCall(sig, k);
        if (call !== "") {
          emit(makeFinding("ERROR_BASED", "HIGH", `Pattern detected: ${call}(`));
          continue;
        }
      }
      if ((t.kind !== "identifier" && t.kind !== "keyword") || sig[k + 1]?.text !== "(") continue;
      const u = t.upper;
      if (LEAKING_CALLS.has(u)) {
        const close = matchingParen(sig, depth, k + 1, SCAN_LIMIT);
        // `XMLType(doc)` parses documents; built from a subquery it leaks it (issue 8).
        if (u === "XMLTYPE" && !hasSecret(sig, k + 2, close) && !hasSubquery(sig, k + 2, close))
          continue;
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

function hasSubquery(sig: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < to; j++)
    if (sig[j]?.kind === "keyword" && sig[j]?.upper === "SELECT") return true;
  return false;
}

/**
 * The qualified name at `k` (`CTXSYS.DRITHSX.SN`) when it is called and ends with one of
 * {@link LEAKING_PACKAGE_CALLS}, else "". Reads at most four name parts.
 */
function leakingPackageCall(sig: readonly Token[], k: number): string {
  const parts: string[] = [];
  let j = k;
  while (parts.length < 4 && sig[j]?.kind === "identifier") {
    parts.push((sig[j] as Token).upper);
    if (sig[j + 1]?.text !== ".") break;
    j += 2;
  }
  if (sig[j + 1]?.text !== "(" || parts.length < 2) return "";
  const name = parts.join(".");
  return LEAKING_PACKAGE_CALLS.some((call) => name === call || name.endsWith(`.${call}`))
    ? name
    : "";
}
