import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";

/** Functions that stall the server (called with parentheses). */
const SLEEP_CALLS: ReadonlySet<string> = new Set([
  "SLEEP",
  "PG_SLEEP",
  "PG_SLEEP_FOR",
  "PG_SLEEP_UNTIL",
  "BENCHMARK",
]);
/** `package.function` calls that stall an Oracle server. */
const QUALIFIED_SLEEPS: ReadonlySet<string> = new Set([
  "DBMS_LOCK.SLEEP",
  "DBMS_PIPE.RECEIVE_MESSAGE",
  "DBMS_SESSION.SLEEP",
]);
/** SQLite has no sleep; attackers burn time generating huge blobs instead. */
const HEAVY_CALLS: ReadonlySet<string> = new Set(["RANDOMBLOB", "ZEROBLOB"]);
const HEAVY_ARGUMENT = 1_000_000;
/** Row generators: asked for tens of millions of rows inside a condition, they stall the query. */
const ROW_GENERATORS: ReadonlySet<string> = new Set(["GENERATE_SERIES", "RANGE", "SEQUENCE"]);
const HEAVY_ROWS = 10_000_000;
/** Arguments of a row generator examined (`generate_series(1, 50000000, 1)` has three). */
const GENERATOR_ARGUMENTS = 8;

/**
 * Delays used for time-based blind injection: `SLEEP(5)`, `pg_sleep(5)`, `BENCHMARK(…)`,
 * `WAITFOR DELAY '0:0:5'`, `DBMS_LOCK.SLEEP(5)`, `DBMS_PIPE.RECEIVE_MESSAGE(…)`, SQLite's
 * `randomblob(100000000)` and heavy queries inside a condition (`generate_series(1, 50000000)`;
 * cross joins of catalogs are caught as subqueries over catalogs by the boolean-based detector). Words inside strings and comments do not count.
 *
 * @example
 * scanSql("SELECT * FROM users WHERE id = 1 AND SLEEP(5)").findings[0]?.pattern; // "TIME_BASED"
 */
export const timeBasedDetector: Detector = {
  family: "time-based",
  patterns: ["TIME_BASED"],
  detect(ctx, emit) {
    const sig = ctx.sig;
    let inCondition = false;
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      if (t.text === ";") inCondition = false;
      if (t.kind !== "identifier" && t.kind !== "keyword") continue;
      if (t.kind === "keyword" && (t.upper === "WHERE" || t.upper === "HAVING")) inCondition = true;
      const call = sig[k + 1]?.text === "(";
      if (call && SLEEP_CALLS.has(t.upper) && sig[k - 1]?.text !== ".") {
        emit(makeFinding("TIME_BASED", "HIGH", `Pattern detected: ${t.text}(`));
      } else if (
        sig[k + 1]?.text === "." &&
        sig[k + 3]?.text === "(" &&
        QUALIFIED_SLEEPS.has(`${t.upper}.${sig[k + 2]?.upper ?? ""}`)
      ) {
        emit(
          makeFinding(
            "TIME_BASED",
            "HIGH",
            `Pattern detected: ${t.text}.${sig[k + 2]?.text ?? ""}(`,
          ),
        );
        k += 2;
      } else if (
        t.upper === "WAITFOR" &&
        (sig[k + 1]?.upper === "DELAY" || sig[k + 1]?.upper === "TIME")
      ) {
        emit(
          makeFinding(
            "TIME_BASED",
            "HIGH",
            `Pattern detected: ${t.text} ${sig[k + 1]?.text ?? ""}`,
          ),
        );
      } else if (call && inCondition && ROW_GENERATORS.has(t.upper)) {
        // `AND 1=(SELECT COUNT(*) FROM generate_series(1, 50000000))`: a heavy query as a delay
        // (issue 8). Seeding (`INSERT … SELECT … FROM generate_series(1, 20000000)`) has no
        // condition around it.
        const heavy = heavyArgument(sig, k + 2);
        if (heavy !== undefined) {
          emit(
            makeFinding(
              "TIME_BASED",
              "HIGH",
              `Heavy query used as a delay: ${t.text}(… ${heavy} …)`,
            ),
          );
        }
      } else if (call && HEAVY_CALLS.has(t.upper)) {
        const argument = sig[k + 2];
        if (argument?.kind === "number" && Number(argument.text) >= HEAVY_ARGUMENT) {
          emit(makeFinding("TIME_BASED", "HIGH", `Pattern detected: ${t.text}(${argument.text})`));
        }
      }
    }
  },
};

/** The first number of at least {@link HEAVY_ROWS} among the arguments starting at `from`. */
function heavyArgument(sig: readonly Token[], from: number): string | undefined {
  for (let j = from; j < from + 2 * GENERATOR_ARGUMENTS && sig[j]?.text !== ")"; j++) {
    const t = sig[j] as Token | undefined;
    if (t?.kind === "number" && Number(t.text) >= HEAVY_ROWS) return t.text;
  }
  return undefined;
}
