import type { LintRule } from "../lint-rule.js";

const STYLE_NAME: Readonly<Record<string, string>> = {
  '"': 'double quotes ("name")',
  "`": "backticks (`name`)",
  "[": "brackets ([name])",
};

/**
 * L032: quoted identifiers written with more than one quoting style in one text (`"a"` and
 * `` `b` ``, or `[c]`). The first one written sets the style. No fix: which quotes a database
 * accepts depends on its settings (ANSI_QUOTES, QUOTED_IDENTIFIER), so changing them is not
 * safe blindly.
 *
 * @example
 * mixedQuoting.check(createLintContext('SELECT "a", `b` FROM t'), report); // 1:13
 */
export const mixedQuoting: LintRule = {
  code: "L032",
  name: "MixedQuoting",
  severity: "info",
  category: "consistency",
  description:
    "Reports quoted identifiers that use a different quoting style from the first one in the text: double quotes (the SQL standard), backticks (MySQL, BigQuery, Spark) or brackets (SQL Server). Mixed styles usually mean code pasted from another dialect, and one of the styles may stop working when the server's quoting setting changes. The first quoted identifier sets the style.",
  bad: 'SELECT "order id", `total` FROM orders',
  good: 'SELECT "order id", "total" FROM orders',
  fixable: false,
  check(ctx, report) {
    let style: string | undefined;
    for (const token of ctx.tokens) {
      if (token.kind !== "quoted_identifier") continue;
      const quote = token.text[0] ?? "";
      if (STYLE_NAME[quote] === undefined) continue;
      style ??= quote;
      if (quote === style) continue;
      report({
        line: token.line,
        column: token.column,
        message: `Identifier quoted with ${STYLE_NAME[quote]} where this text uses ${STYLE_NAME[style]}`,
        suggestion: "Quote every identifier the same way",
      });
    }
  },
};
