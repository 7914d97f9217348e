import { forEachConstantTerm } from "../condition-terms.js";
import type { Detector } from "../detector.js";
import { makeFinding } from "../patterns.js";
import { spanText } from "../scan-context.js";
import { isComparisonToken } from "../signals.js";
import type { Token } from "../../token.js";

function hasComparison(sig: readonly Token[], from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const t = sig[j] as Token;
    if (isComparisonToken(t)) return true;
  }
  return false;
}

/**
 * Always-true conditions: a constant condition joined with OR (`… OR 1=1`, `' OR 'a'='a`,
 * `OR TRUE`, `OR 2>1`, `OR x=x`, MySQL's `|| 1=1`), or a WHERE/HAVING whose whole condition is
 * always true. The query-builder idiom `WHERE 1=1 AND …` is reported at MEDIUM only, a bare
 * `WHERE TRUE` (the safe-update idiom) at LOW, and always-false conditions
 * (`WHERE 1=0`) are left to the boolean-based detector.
 *
 * @example
 * scanSql("SELECT * FROM users WHERE id = 1 OR 1=1").findings[0]?.severity; // "CRITICAL"
 */
export const tautologyDetector: Detector = {
  family: "tautology",
  patterns: ["TAUTOLOGY"],
  detect(ctx, emit) {
    forEachConstantTerm(ctx, (term) => {
      if (term.value === "false" || term.clause === "WHEN") return;
      const text = spanText(ctx.sig, term.from, term.to);
      const single = term.to - term.from === 1;
      if (term.before === "OR" || term.after === "OR") {
        const description =
          single && term.before === "OR"
            ? `Pattern detected: OR ${text}`
            : `Always-true condition detected (tautology): ${text}`;
        emit(makeFinding("TAUTOLOGY", "CRITICAL", description));
        return;
      }
      if (term.before === "||") {
        // `id = 1 || 1=1`: MySQL's `||` is OR. Elsewhere it concatenates (`'A' || '1'`), so only
        // an always-true comparison counts (issue 8).
        if (term.value === "true" && hasComparison(ctx.sig, term.from, term.to)) {
          emit(
            makeFinding(
              "TAUTOLOGY",
              "CRITICAL",
              `Always-true condition detected (tautology): || ${text}`,
            ),
          );
        }
        return;
      }
      if (term.before !== "WHERE" && term.before !== "HAVING") return;
      if (single && term.value === "true" && text.toUpperCase() === "TRUE" && term.after !== "OR") {
        // A whole condition of just TRUE is written on purpose: it is how a deliberate whole-table
        // UPDATE or DELETE gets past safe-update guards (pg-safeupdate, tools that demand a
        // WHERE); 7 real migrations had it (issue 25). An injection needs OR to reach it.
        emit(
          makeFinding(
            "TAUTOLOGY",
            "LOW",
            "Condition is the literal TRUE: every row matches (a deliberate whole-table statement?)",
          ),
        );
        return;
      }
      if (term.after === "AND" || term.after === "&&") {
        emit(
          makeFinding(
            "TAUTOLOGY",
            "MEDIUM",
            `Always-true condition before AND (query-builder idiom?): ${text}`,
          ),
        );
      } else {
        emit(
          makeFinding(
            "TAUTOLOGY",
            "CRITICAL",
            `Always-true condition detected (tautology): ${text}`,
          ),
        );
      }
    });
  },
};
