import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * The reference linter's keyword list. A word is reported only when the tokenizer also reads it
 * as a keyword, so column names such as `key` or `value` (identifiers to the tokenizer) are not;
 * `KEY` after PRIMARY or FOREIGN is checked too.
 */
const CHECKED_KEYWORDS: ReadonlySet<string> = new Set(
  `SELECT FROM WHERE AND OR NOT IN IS NULL LIKE BETWEEN EXISTS CASE WHEN THEN ELSE END AS ON JOIN
  INNER LEFT RIGHT FULL OUTER CROSS NATURAL USING GROUP BY HAVING ORDER ASC DESC LIMIT OFFSET UNION
  ALL EXCEPT INTERSECT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE INDEX VIEW DROP ALTER ADD
  COLUMN CONSTRAINT PRIMARY KEY FOREIGN REFERENCES UNIQUE CHECK DEFAULT CASCADE WITH RECURSIVE
  DISTINCT TRUE FALSE OVER PARTITION ROWS RANGE UNBOUNDED PRECEDING FOLLOWING CURRENT ROW RETURNING
  COALESCE NULLIF CAST MERGE MATCHED MATERIALIZED REFRESH ROLLUP CUBE GROUPING SETS`.split(/\s+/),
);

/** The spelling `text` should have under `policy`. */
function expected(text: string, policy: "upper" | "lower"): string {
  return policy === "upper" ? text.toUpperCase() : text.toLowerCase();
}

/** The case `text` is written in, when it is all one case. */
function caseOf(text: string): "upper" | "lower" | undefined {
  if (text === text.toUpperCase()) return "upper";
  if (text === text.toLowerCase()) return "lower";
  return undefined;
}

/**
 * L007: SQL keywords not written in upper case (or lower case, or the case of the first keyword:
 * the `keyword_case` setting). Words inside strings, quoted identifiers and comments, and words
 * used as qualified names (`t.order`), are not keywords and are not reported. Fix: the keyword is
 * re-cased (unquoted words are case-insensitive in SQL, so meaning is kept).
 *
 * @example
 * keywordCase.check(createLintContext("select 1"), report); // "Keyword 'select' should be uppercase: 'SELECT'"
 */
export const keywordCase: LintRule = {
  code: "L007",
  name: "KeywordCase",
  severity: "warning",
  category: "keywords",
  aliases: ["CP01", "capitalisation.keywords"],
  description:
    "Reports SQL keywords that are not written in upper case (or in the configured case: lower, or consistent with the first keyword). Upper-case keywords separate the structure of a query from the names it uses at a glance, and one convention across a code base keeps diffs quiet. Only real keyword tokens are checked: text inside string literals, quoted identifiers and comments is ignored, as are words that follow a dot in a qualified name.",
  bad: "select id from users where active = true",
  good: "SELECT id FROM users WHERE active = TRUE",
  fixable: true,
  options: [
    {
      name: "keyword_case",
      values: "upper, lower or consistent; default upper (the sqlsvc CLI: consistent)",
      description:
        "The case keywords must be written in; consistent takes the case of the first keyword (upper when it is mixed).",
    },
  ],
  examples: [
    {
      options: { L007: { keyword_case: "lower" } },
      bad: "select id FROM users",
      good: "select id from users where active = true",
    },
    {
      options: { L007: { keyword_case: "consistent" } },
      bad: "select id FROM users",
      good: "select id from users",
    },
  ],
  check(ctx, report) {
    const setting = ctx.settings.L007.keyword_case;
    let policy: "upper" | "lower" | undefined = setting === "consistent" ? undefined : setting;
    let previous: Token | undefined;
    for (const token of ctx.tokens) {
      if (!isSignificant(token)) continue;
      const keyword =
        token.kind === "keyword" ||
        (token.upper === "KEY" && (previous?.upper === "PRIMARY" || previous?.upper === "FOREIGN"));
      if (keyword && CHECKED_KEYWORDS.has(token.upper) && previous?.text !== ".") {
        policy ??= caseOf(token.text) ?? "upper";
        const want = expected(token.text, policy);
        if (token.text !== want) {
          const name = policy === "upper" ? "uppercase" : "lowercase";
          report({
            line: token.line,
            column: token.column,
            message: `Keyword '${token.text}' should be ${name}: '${want}'`,
            suggestion: `Change '${token.text}' to '${want}'`,
            fix: [{ start: token.start, end: token.end, text: want }],
          });
        }
      }
      previous = token;
    }
  },
};
