import type { LintRule } from "../lint-rule.js";

const MAX_DEPTH = 4;
const INDENT_SIZE = 4;

/**
 * L004: a line indented deeper than 4 levels of 4 spaces (a tab counts as 4 spaces).
 *
 * @example
 * indentationDepth.check(createLintContext(" ".repeat(20) + "x"), report); // "… 5 levels (max 4)"
 */
export const indentationDepth: LintRule = {
  code: "L004",
  name: "IndentationDepth",
  severity: "warning",
  category: "whitespace",
  description:
    "Reports lines indented deeper than 4 levels, where a level is 4 spaces and a tab counts as 4 spaces. Deep indentation usually means deeply nested subqueries, which are hard to read and review; common table expressions or views flatten them. Whitespace-only lines and lines inside multi-line strings are skipped.",
  bad: "SELECT id\nFROM users\nWHERE id IN (\n                    SELECT user_id FROM orders\n)",
  good: "SELECT id\nFROM users\nWHERE id IN (\n    SELECT user_id FROM orders\n)",
  check(ctx, report) {
    for (const line of ctx.lines) {
      if (line.startsInString || line.startsInComment) continue;
      const text = line.text;
      let width = 0;
      let i = 0;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 9) width += INDENT_SIZE;
        else if (c === 32) width++;
        else break;
      }
      if (i === text.length) continue;
      const depth = Math.floor(width / INDENT_SIZE);
      if (depth <= MAX_DEPTH) continue;
      report({
        line: line.number,
        column: 1,
        message: `Indentation depth exceeds maximum: ${depth} levels (max ${MAX_DEPTH})`,
        suggestion: "Consider simplifying the query or breaking it into smaller parts",
      });
    }
  },
};
