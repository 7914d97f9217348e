import { codePointLength } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/**
 * L005: a line longer than 100 characters (code points; the `max_length` setting). Comment-only
 * lines are exempt.
 *
 * @example
 * longLines.check(createLintContext("x".repeat(101)), report); // one finding at 1:101
 */
export const longLines: LintRule = {
  code: "L005",
  name: "LongLines",
  severity: "info",
  category: "whitespace",
  aliases: ["LT05", "layout.long_lines"],
  description:
    "Reports lines longer than 100 characters (or the configured maximum), counted in Unicode code points so that non-Latin text is not penalised. Long lines force horizontal scrolling and hide clauses in reviews. Lines that hold only a comment, and lines inside a multi-line comment, are exempt because prose is wrapped by its author.",
  bad: `SELECT id, name, email, address, phone, city, state, zip, country FROM users WHERE active = TRUE AND deleted = FALSE`,
  good: "SELECT id, name, email, address, phone, city, state, zip, country\nFROM users\nWHERE active = TRUE AND deleted = FALSE",
  fixable: false,
  options: [
    {
      name: "max_length",
      values: "integer 1-100000, default 100",
      description: "The longest line allowed, in characters (code points).",
    },
  ],
  examples: [
    {
      options: { L005: { max_length: 40 } },
      bad: "SELECT id, name, email FROM users WHERE active = TRUE",
      good: "SELECT id, name, email\nFROM users\nWHERE active = TRUE",
    },
  ],
  compact(violation) {
    // The seed's message leaves the figures to the suggestion.
    const figures = /current: (\d+) chars, max: (\d+)/.exec(violation.suggestion);
    return figures === null
      ? violation.message
      : `Line is ${figures[1]} characters (max ${figures[2]})`;
  },
  check(ctx, report) {
    const maxLength = ctx.settings.L005.max_length;
    for (const line of ctx.lines) {
      if (line.startsInComment) continue;
      const text = line.text;
      if (text.length <= maxLength) continue;
      const length = codePointLength(text);
      if (length <= maxLength) continue;
      const trimmed = text.trimStart();
      if (trimmed.startsWith("--") || trimmed.startsWith("/*") || trimmed.startsWith("#")) continue;
      report({
        line: line.number,
        column: maxLength + 1,
        message: "Line exceeds maximum length",
        suggestion: `Split this line into multiple lines (current: ${length} chars, max: ${maxLength})`,
      });
    }
  },
};
