import type { LintRule } from "../lint-rule.js";

/**
 * L002: a line indented with both tabs and spaces, or indented with a different character than
 * the first indented line of the input.
 *
 * @example
 * mixedIndentation.check(createLintContext("\t SELECT 1"), report); // one finding at 1:1
 */
export const mixedIndentation: LintRule = {
  code: "L002",
  name: "MixedIndentation",
  severity: "error",
  category: "whitespace",
  description:
    "Reports indentation that mixes tabs and spaces, either within one line or across the input (the first indented line sets the style). Mixed indentation renders differently in every editor, so nesting that looks right in one place looks wrong in another. Lines that begin inside a multi-line string are data and are skipped.",
  bad: "SELECT\n    id,\n\tname\nFROM users",
  good: "SELECT\n    id,\n    name\nFROM users",
  check(ctx, report) {
    let style: "tab" | "space" | undefined;
    for (const line of ctx.lines) {
      if (line.startsInString) continue;
      const text = line.text;
      let tabs = 0;
      let spaces = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 9) tabs++;
        else if (c === 32) spaces++;
        else break;
      }
      if (tabs > 0 && spaces > 0) {
        report({
          line: line.number,
          column: 1,
          message: "Line mixes tabs and spaces for indentation",
          suggestion: "Use either tabs or spaces consistently for indentation (spaces recommended)",
        });
        continue;
      }
      if (tabs === 0 && spaces === 0) continue;
      const current = tabs > 0 ? "tab" : "space";
      if (style === undefined) style = current;
      else if (current !== style) {
        report({
          line: line.number,
          column: 1,
          message: "Inconsistent indentation: file uses both tabs and spaces",
          suggestion:
            style === "space"
              ? "Use spaces consistently throughout the file"
              : "Use tabs consistently throughout the file",
        });
      }
    }
  },
};
