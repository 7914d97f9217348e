import { codePointLength } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

const MAX_LENGTH = 100;

/**
 * L005: a line longer than 100 characters (code points). Comment-only lines are exempt.
 *
 * @example
 * longLines.check(createLintContext("x".repeat(101)), report); // one finding at 1:101
 */
export const longLines: LintRule = {
  code: "L005",
  name: "LongLines",
  severity: "info",
  category: "whitespace",
  description:
    "Reports lines longer than 100 characters, counted in Unicode code points so that non-Latin text is not penalised. Long lines force horizontal scrolling and hide clauses in reviews. Lines that hold only a comment, and lines inside a multi-line comment, are exempt because prose is wrapped by its author.",
  bad: `SELECT id, name, email, address, phone, city, state, zip, country FROM users WHERE active = TRUE AND deleted = FALSE`,
  good: "SELECT id, name, email, address, phone, city, state, zip, country\nFROM users\nWHERE active = TRUE AND deleted = FALSE",
  check(ctx, report) {
    for (const line of ctx.lines) {
      if (line.startsInComment) continue;
      const text = line.text;
      if (text.length <= MAX_LENGTH) continue;
      const length = codePointLength(text);
      if (length <= MAX_LENGTH) continue;
      const trimmed = text.trimStart();
      if (trimmed.startsWith("--") || trimmed.startsWith("/*") || trimmed.startsWith("#")) continue;
      report({
        line: line.number,
        column: MAX_LENGTH + 1,
        message: "Line exceeds maximum length",
        suggestion: `Split this line into multiple lines (current: ${length} chars, max: ${MAX_LENGTH})`,
      });
    }
  },
};
