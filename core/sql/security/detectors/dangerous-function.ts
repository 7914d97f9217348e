import type { Token } from "../../token.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";

/**
 * Dynamic SQL, which turns data into code: `EXEC(…)`, `EXEC @sql`, `EXECUTE IMMEDIATE`,
 * `sp_executesql`, `PREPARE stmt FROM …`. Legitimate in stored procedures, hence MEDIUM.
 *
 * @example
 * scanSql("EXECUTE IMMEDIATE 'DROP TABLE t'").findings[0]?.pattern; // "DANGEROUS_FUNCTION"
 */
export const dangerousFunctionDetector: Detector = {
  family: "dangerous-function",
  patterns: ["DANGEROUS_FUNCTION"],
  detect(ctx, emit) {
    const sig = ctx.sig;
    for (let k = 0; k < sig.length; k++) {
      const t = sig[k] as Token;
      if (t.kind !== "identifier" && t.kind !== "keyword") continue;
      const next = sig[k + 1];
      if (
        (t.upper === "EXEC" || t.upper === "EXECUTE") &&
        (next?.text === "(" || next?.kind === "parameter")
      ) {
        emit(
          makeFinding(
            "DANGEROUS_FUNCTION",
            "MEDIUM",
            `Pattern detected: ${t.text}${next.text === "(" ? "(" : ` ${next.text}`}`,
          ),
        );
      } else if (t.upper === "EXECUTE" && next?.upper === "IMMEDIATE") {
        emit(
          makeFinding("DANGEROUS_FUNCTION", "MEDIUM", `Pattern detected: ${t.text} ${next.text}`),
        );
      } else if (t.upper === "SP_EXECUTESQL") {
        emit(makeFinding("DANGEROUS_FUNCTION", "MEDIUM", `Pattern detected: ${t.text}`));
      } else if (t.upper === "PREPARE" && sig[k + 2]?.upper === "FROM") {
        emit(
          makeFinding(
            "DANGEROUS_FUNCTION",
            "MEDIUM",
            `Pattern detected: ${t.text} ${next?.text ?? ""} FROM`,
          ),
        );
      }
    }
  },
};
