import type { LintLine } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";
import type { TextEdit } from "../text-edit.js";

/** Columns a tab advances to, as L004 counts it by default. */
const TAB_WIDTH = 4;

/**
 * The edit that re-indents `line` (`indent` leading characters) in `style`: tabs expand to spaces
 * at tab stops of {@link TAB_WIDTH}; spaces become tabs only when the width is a whole number of
 * tabs (else the line keeps spaces and stays reported: no safe fix).
 */
function reindent(line: LintLine, indent: number, style: "tab" | "space"): TextEdit[] | undefined {
  let width = 0;
  for (let i = 0; i < indent; i++) {
    width =
      line.text.charCodeAt(i) === 9 ? (Math.floor(width / TAB_WIDTH) + 1) * TAB_WIDTH : width + 1;
  }
  if (style === "tab" && width % TAB_WIDTH !== 0) return undefined;
  const text = style === "tab" ? "\t".repeat(width / TAB_WIDTH) : " ".repeat(width);
  return [{ start: line.start, end: line.start + indent, text }];
}

/**
 * L002: a line indented with both tabs and spaces, or indented with a different character than
 * the first indented line of the input. Fix: the line is re-indented in the input's style (spaces
 * when a line mixes both before any style is set), a tab counting as four columns.
 *
 * @example
 * mixedIndentation.check(createLintContext("\t SELECT 1"), report); // one finding at 1:1
 */
export const mixedIndentation: LintRule = {
  code: "L002",
  name: "MixedIndentation",
  severity: "error",
  category: "whitespace",
  aliases: ["LT02", "layout.indent"],
  description:
    "Reports indentation that mixes tabs and spaces, either within one line or across the input (the first indented line sets the style). Mixed indentation renders differently in every editor, so nesting that looks right in one place looks wrong in another. Lines that begin inside a multi-line string are data and are skipped.",
  bad: "SELECT\n    id,\n\tname\nFROM users",
  good: "SELECT\n    id,\n    name\nFROM users",
  fixable: true,
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
      // Re-indenting a line that begins inside a block comment would edit the comment's text.
      const fix = (to: "tab" | "space") =>
        line.startsInComment ? undefined : reindent(line, tabs + spaces, to);
      if (tabs > 0 && spaces > 0) {
        const edits = fix(style ?? "space");
        report({
          line: line.number,
          column: 1,
          message: "Line mixes tabs and spaces for indentation",
          suggestion: "Use either tabs or spaces consistently for indentation (spaces recommended)",
          ...(edits === undefined ? {} : { fix: edits }),
        });
        continue;
      }
      if (tabs === 0 && spaces === 0) continue;
      const current = tabs > 0 ? "tab" : "space";
      if (style === undefined) style = current;
      else if (current !== style) {
        const edits = fix(style);
        report({
          line: line.number,
          column: 1,
          message: "Inconsistent indentation: file uses both tabs and spaces",
          suggestion:
            style === "space"
              ? "Use spaces consistently throughout the file"
              : "Use tabs consistently throughout the file",
          ...(edits === undefined ? {} : { fix: edits }),
        });
      }
    }
  },
};
