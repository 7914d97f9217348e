import type { LintRule } from "../lint-rule.js";

/**
 * L004: a line indented deeper than 4 levels of 4 spaces (a tab counts as 4 spaces); both numbers
 * are settings (`indent_size`, `max_depth`).
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
    "Reports lines indented deeper than 4 levels, where a level is 4 spaces and a tab counts as 4 spaces (both numbers can be set). Deep indentation usually means deeply nested subqueries, which are hard to read and review; common table expressions or views flatten them. Whitespace-only lines and lines inside multi-line strings are skipped.",
  bad: "SELECT id\nFROM users\nWHERE id IN (\n                    SELECT user_id FROM orders\n)",
  good: "SELECT id\nFROM users\nWHERE id IN (\n    SELECT user_id FROM orders\n)",
  fixable: false,
  options: [
    {
      name: "indent_size",
      values: "integer 1-16, default 4",
      description: "Spaces per indentation level; a tab counts as this many spaces.",
    },
    {
      name: "max_depth",
      values: "integer 0-100, default 4",
      description: "The deepest indentation level allowed.",
    },
  ],
  examples: [
    {
      options: { L004: { indent_size: 2, max_depth: 2 } },
      bad: "SELECT id\nFROM users\nWHERE id IN (\n      SELECT user_id FROM orders\n)",
      good: "SELECT id\nFROM users\nWHERE id IN (\n  SELECT user_id FROM orders\n)",
    },
  ],
  check(ctx, report) {
    const { indent_size: indentSize, max_depth: maxDepth } = ctx.settings.L004;
    for (const line of ctx.lines) {
      if (line.startsInString || line.startsInComment) continue;
      const text = line.text;
      let width = 0;
      let i = 0;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 9) width += indentSize;
        else if (c === 32) width++;
        else break;
      }
      if (i === text.length) continue;
      const depth = Math.floor(width / indentSize);
      if (depth <= maxDepth) continue;
      report({
        line: line.number,
        column: 1,
        message: `Indentation depth exceeds maximum: ${depth} levels (max ${maxDepth})`,
        suggestion: "Consider simplifying the query or breaking it into smaller parts",
      });
    }
  },
};
