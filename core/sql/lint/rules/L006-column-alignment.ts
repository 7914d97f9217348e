import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintRule } from "../lint-rule.js";

/** Words that end a select list at its own parenthesis depth. */
const LIST_END: ReadonlySet<string> = new Set([
  "FROM", "INTO", "WHERE", "GROUP", "ORDER", "HAVING", "LIMIT", "UNION", "EXCEPT", "INTERSECT",
  "MINUS", "WINDOW", "QUALIFY", "FETCH", "OFFSET",
]); // prettier-ignore
const LIST_PREFIX: ReadonlySet<string> = new Set(["DISTINCT", "ALL", "DISTINCTROW"]);

interface Item {
  readonly width: number;
  readonly line: number;
  readonly column: number;
}

interface SelectList {
  readonly depth: number;
  readonly items: Item[];
  expectItem: boolean;
  itemCount: number;
}

function indentWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 9) width += 4;
    else if (c === 32) width++;
    else break;
  }
  return width;
}

/**
 * L006: select-list items that start a line but are not aligned with the other items of the same
 * list. The first item is exempt (it usually sits after `SELECT`); the most common indentation of
 * the rest wins (ties go to the indentation seen first).
 *
 * @example
 * columnAlignment.check(createLintContext("SELECT a,\n  b,\n    c,\n  d\nFROM t"), report); // 3:5
 */
export const columnAlignment: LintRule = {
  code: "L006",
  name: "ColumnAlignment",
  severity: "info",
  category: "style",
  description:
    "Reports select-list items that begin a line at a different indentation than the other items of the same SELECT. Aligned columns make it easy to scan what a query returns and to spot a missing comma. Only items that begin a line are compared (continuation lines of a long expression are free), the first item is exempt because it usually follows the SELECT keyword, and the most common indentation of the remaining items is taken as the intended one.",
  bad: "SELECT\n    id,\n  name,\n    email,\n    phone\nFROM users",
  good: "SELECT\n    id,\n    name,\n    email\nFROM users",
  fixable: false,
  check(ctx, report) {
    const stack: SelectList[] = [];
    let depth = 0;
    let atLineStart = true;

    const finish = (list: SelectList): void => {
      const rest = list.items.slice(1);
      if (rest.length < 2) return;
      const counts = new Map<number, number>();
      let expected = -1;
      let best = 0;
      for (const item of rest) {
        const count = (counts.get(item.width) ?? 0) + 1;
        counts.set(item.width, count);
        if (count > best) {
          best = count;
          expected = item.width;
        }
      }
      for (const item of rest) {
        if (item.width === expected) continue;
        report({
          line: item.line,
          column: item.column,
          message: "Column not aligned with other columns",
          suggestion: "Align column to match other columns in the SELECT list",
        });
      }
    };

    const record = (token: Token, lineStart: boolean): void => {
      const top = stack[stack.length - 1];
      if (top === undefined || top.depth !== depth || !top.expectItem) return;
      if (token.kind === "keyword" && LIST_PREFIX.has(token.upper)) return;
      top.expectItem = false;
      top.itemCount++;
      // Only items that begin a line can be misaligned; the first item is kept so it can be dropped.
      if (top.itemCount > 1 && !lineStart) return;
      const text = ctx.lines[token.line - 1]?.text ?? "";
      top.items.push({
        width: lineStart ? indentWidth(text) : token.column - 1,
        line: token.line,
        column: token.column,
      });
    };

    for (const token of ctx.tokens) {
      if (token.kind === "newline") {
        atLineStart = true;
        continue;
      }
      if (!isSignificant(token)) continue;
      const first = atLineStart;
      atLineStart = false;
      const top = stack[stack.length - 1];
      if (token.kind === "keyword" && token.upper === "SELECT") {
        stack.push({ depth, items: [], expectItem: true, itemCount: 0 });
        continue;
      }
      if (top !== undefined && top.depth === depth) {
        if ((token.kind === "keyword" && LIST_END.has(token.upper)) || token.text === ";") {
          finish(top);
          stack.pop();
        } else if (token.text === ",") {
          top.expectItem = true;
          continue;
        }
      }
      if (token.text === ")") {
        depth = Math.max(0, depth - 1);
        while (stack.length > 0 && (stack[stack.length - 1] as SelectList).depth > depth) {
          finish(stack.pop() as SelectList);
        }
        continue;
      }
      record(token, first);
      if (token.text === "(") depth++;
    }
    while (stack.length > 0) finish(stack.pop() as SelectList);
  },
};
