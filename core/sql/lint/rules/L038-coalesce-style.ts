import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

const SPELLINGS: ReadonlySet<string> = new Set(["IFNULL", "NVL"]);

/**
 * L038 (SQLFluff CV02): `IFNULL(a, b)` (MySQL, SQLite, Snowflake) or `NVL(a, b)` (Oracle,
 * Snowflake), where the standard `COALESCE(a, b)` means the same. Fix: the name becomes COALESCE
 * in the case it was written in. T-SQL's `ISNULL`, whose result type differs, is not touched.
 *
 * @example
 * coalesceStyle.check(createLintContext("SELECT IFNULL(a, 0) FROM t"), report); // 1:8
 */
export const coalesceStyle: LintRule = {
  code: "L038",
  name: "CoalesceStyle",
  severity: "info",
  category: "consistency",
  aliases: ["CV02", "convention.coalesce"],
  description:
    "Reports IFNULL and NVL calls. Both return their first argument unless it is NULL, then the second: exactly what the standard COALESCE does, which every dialect supports (IFNULL is missing from PostgreSQL and Oracle, NVL from MySQL and PostgreSQL). The fix renames the function. T-SQL's ISNULL takes its result type from the first argument alone and is left alone.",
  bad: "SELECT IFNULL(nickname, name) AS display_name\nFROM users",
  good: "SELECT COALESCE(nickname, name) AS display_name\nFROM users",
  fixable: true,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    for (let i = 0; i + 1 < code.length; i++) {
      const name = code[i] as Token;
      if (!SPELLINGS.has(name.upper) || code[i + 1]?.text !== "(") continue;
      if (name.kind !== "identifier" && name.kind !== "keyword") continue;
      if (code[i - 1]?.text === ".") continue;
      const want = name.text === name.text.toLowerCase() ? "coalesce" : "COALESCE";
      report({
        line: name.line,
        column: name.column,
        message: `${name.text.toUpperCase()} is COALESCE under a dialect's name`,
        suggestion: `Write ${want}`,
        fix: [{ start: name.start, end: name.end, text: want }],
      });
    }
  },
};
