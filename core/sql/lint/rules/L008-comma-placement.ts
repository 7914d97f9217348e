import type { LintRule } from "../lint-rule.js";

/**
 * L008: a comma that begins a line (leading-comma style); trailing commas are preferred.
 *
 * @example
 * commaPlacement.check(createLintContext("SELECT id\n     , name\nFROM t"), report); // 2:6
 */
export const commaPlacement: LintRule = {
  code: "L008",
  name: "CommaPlacement",
  severity: "info",
  category: "style",
  description:
    "Reports commas that begin a line (leading-comma style) when something follows them on that line. The project prefers trailing commas: each line then reads as a complete list item, matching how most formatters and code generators print SQL. A line holding nothing but a comma is left alone, and commas inside strings or comments are never considered.",
  bad: "SELECT id\n     , name\n     , email\nFROM users",
  good: "SELECT id,\n    name,\n    email\nFROM users",
  check(ctx, report) {
    const tokens = ctx.tokens;
    let atLineStart = true;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token === undefined) break;
      if (token.kind === "newline") {
        atLineStart = true;
        continue;
      }
      if (token.kind === "whitespace") continue;
      const leading = atLineStart && token.text === ",";
      atLineStart = false;
      if (!leading) continue;
      let j = i + 1;
      while (tokens[j]?.kind === "whitespace") j++;
      const after = tokens[j];
      if (after === undefined || after.kind === "newline") continue;
      report({
        line: token.line,
        column: token.column,
        message: "Leading comma found, but trailing comma style is preferred",
        suggestion: "Move comma to end of previous line",
      });
    }
  },
};
