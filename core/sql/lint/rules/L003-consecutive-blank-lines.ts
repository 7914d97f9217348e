import type { LintLine } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

const MAX_BLANK_LINES = 1;

function isBlank(line: LintLine): boolean {
  if (line.startsInString || line.startsInComment) return false;
  return line.text.trim() === "";
}

/**
 * L003: more than one blank line in a row (blank lines inside strings and comments are content).
 * Fix: the run is cut to one blank line.
 *
 * @example
 * consecutiveBlankLines.check(createLintContext("SELECT 1\n\n\nFROM t"), report); // one finding at 2:1
 */
export const consecutiveBlankLines: LintRule = {
  code: "L003",
  name: "ConsecutiveBlankLines",
  severity: "warning",
  category: "whitespace",
  description:
    "Reports runs of more than one consecutive blank line, including at the end of the input. One blank line is enough to separate statements or logical blocks; longer gaps waste screen space and usually come from careless edits. The violation points at the first blank line of the run.",
  bad: "SELECT id\nFROM users\n\n\nWHERE active = TRUE",
  good: "SELECT id FROM users;\n\nSELECT id FROM orders;",
  fixable: true,
  check(ctx, report) {
    const lines = ctx.lines;
    let i = 0;
    while (i < lines.length) {
      const first = lines[i];
      if (first === undefined || !isBlank(first)) {
        i++;
        continue;
      }
      let j = i;
      while (j < lines.length && isBlank(lines[j] as LintLine)) j++;
      if (j - i > MAX_BLANK_LINES) {
        const atEnd = j === lines.length;
        report({
          line: first.number,
          column: 1,
          message: atEnd
            ? "File ends with multiple consecutive blank lines"
            : "Multiple consecutive blank lines found",
          suggestion: atEnd
            ? "Remove excess trailing blank lines"
            : `Reduce consecutive blank lines to at most ${MAX_BLANK_LINES}`,
          // Keep the run's first blank lines and drop the others with their line breaks.
          fix: [
            {
              start: (lines[i + MAX_BLANK_LINES - 1] as LintLine).end,
              end: (lines[j - 1] as LintLine).end,
              text: "",
            },
          ],
        });
      }
      i = j;
    }
  },
};
