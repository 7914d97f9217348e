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

/**
 * Delays used for time-based blind injection: `SLEEP(5)`, `pg_sleep(5)`, `BENCHMARK(…)`,
 * `WAITFOR DELAY '0:0:5'`, `DBMS_LOCK.SLEEP(5)`, `DBMS_PIPE.RECEIVE_MESSAGE(…)` and SQLite's
 * `randomblob(100000000)`. Words inside strings and comments do not count.
 *
 * @example
 * scanSql("SELECT * FROM users WHERE id = 1 AND SLEEP(5)").findings[0]?.pattern; // "TIME_BASED"
 */
export const timeBasedDetector: Detector = {
  family: "time-based",
  patterns: ["TIME_BASED"],
  detect(ctx, emit) {
    const sig = ctx.sig;
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      if (t.kind !== "identifier" && t.kind !== "keyword") continue;
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
      } else if (call && HEAVY_CALLS.has(t.upper)) {
        const argument = sig[k + 2];
        if (argument?.kind === "number" && Number(argument.text) >= HEAVY_ARGUMENT) {
          emit(makeFinding("TIME_BASED", "HIGH", `Pattern detected: ${t.text}(${argument.text})`));
        }
      }
    }
  },
};
