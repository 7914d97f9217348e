import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L035 (SQLFluff CV04): `COUNT(1)` or `COUNT(0)` to count rows. Fix: the number becomes `*`
 * (both count every row; a constant is never NULL).
 *
 * @example
 * countRows.check(createLintContext("SELECT COUNT(1) FROM t"), report); // 1:14
 */
export const countRows: LintRule = {
  code: "L035",
  name: "CountRows",
  severity: "info",
  category: "consistency",
  aliases: ["CV04", "convention.count_rows"],
  description:
    "Reports `COUNT(1)` and `COUNT(0)`. They count rows exactly like `COUNT(*)`, which is the standard spelling, says what it means, and is what every optimiser recognises; the myth that a constant is faster dates from old versions of one database. The fix writes `COUNT(*)`. `COUNT(column)`, which skips NULLs, is a different count and is not reported.",
  bad: "SELECT COUNT(1) AS order_count\nFROM orders",
  good: "SELECT COUNT(*) AS order_count\nFROM orders",
  fixable: true,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    for (let i = 0; i + 3 < code.length; i++) {
      if (code[i]?.upper !== "COUNT" || code[i + 1]?.text !== "(" || code[i + 3]?.text !== ")")
        continue;
      const arg = code[i + 2] as Token;
      if (arg.kind !== "number" || (arg.text !== "1" && arg.text !== "0")) continue;
      report({
        line: arg.line,
        column: arg.column,
        message: `COUNT(${arg.text}) used to count rows`,
        suggestion: "Write COUNT(*)",
        fix: [{ start: arg.start, end: arg.end, text: "*" }],
      });
    }
  },
};
