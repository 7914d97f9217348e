import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintFinding, LintRule } from "../lint-rule.js";

/** Words that end an ORDER BY list at its own level. */
const LIST_END: ReadonlySet<string> = new Set([
  "LIMIT", "OFFSET", "FETCH", "ROWS", "RANGE", "GROUPS", "UNION", "EXCEPT", "INTERSECT", "MINUS",
  "FOR", "WINDOW", "QUALIFY", "SELECT", "FROM", "WHERE", "RETURNING", "INTO",
]); // prettier-ignore

/**
 * L016 (SQLFluff AM03): an ORDER BY list where some items say ASC or DESC and others say
 * nothing. Fix: `ASC` (the default every dialect applies) is written after the items without a
 * direction, so the meaning is kept and the order reads at a glance.
 *
 * @example
 * orderByDirection.check(createLintContext("SELECT a FROM t ORDER BY a, b DESC"), report); // 1:26
 */
export const orderByDirection: LintRule = {
  code: "L016",
  name: "OrderByDirection",
  severity: "info",
  category: "ambiguity",
  aliases: ["AM03", "ambiguous.order_by"],
  description:
    "Reports ORDER BY items without ASC or DESC in a list where other items have one. `ORDER BY a, b DESC` is often read as both descending; it sorts `a` ascending. Writing the direction of every item when any has one removes the doubt. Window specifications (`OVER (ORDER BY …)`) are checked the same way.",
  bad: "SELECT id, created_at\nFROM orders\nORDER BY customer_id, created_at DESC",
  good: "SELECT id, created_at\nFROM orders\nORDER BY customer_id ASC, created_at DESC",
  fixable: true,
  check(ctx, report) {
    const code = ctx.tokens.filter(isSignificant);
    for (let i = 0; i < code.length; i++) {
      if (code[i]?.upper !== "ORDER" || code[i + 1]?.upper !== "BY") continue;
      const order = code[i] as Token;
      // In the case ORDER is written in, so the fix needs no keyword-case fix after it.
      const asc = order.text === order.text.toLowerCase() ? "asc" : "ASC";
      const items = orderItems(code, i + 2);
      const directed = items.filter((item) => item.direction);
      if (directed.length === 0 || directed.length === items.length) continue;
      for (const item of items) {
        if (item.direction) continue;
        const finding: LintFinding = {
          line: item.first.line,
          column: item.first.column,
          message: "ORDER BY item has no direction while others do",
          suggestion: `Write ${asc} after it`,
          fix: [{ start: item.last.end, end: item.last.end, text: ` ${asc}` }],
        };
        report(finding);
      }
    }
  },
};

interface OrderItem {
  first: Token;
  last: Token;
  direction: boolean;
  /** ASC, DESC or NULLS came: later tokens are not part of the expression. */
  closed: boolean;
}

/** The items of the ORDER BY list starting at `start`, up to the end of the list. */
function orderItems(code: readonly Token[], start: number): OrderItem[] {
  const items: OrderItem[] = [];
  let depth = 0;
  let item: OrderItem | undefined;
  for (let j = start; j < code.length; j++) {
    const t = code[j] as Token;
    if (depth === 0) {
      if (t.text === ")" || t.text === ";") break;
      if (t.kind === "keyword" && LIST_END.has(t.upper)) break;
      if (t.text === ",") {
        item = undefined;
        continue;
      }
      if (item !== undefined && (t.upper === "ASC" || t.upper === "DESC")) {
        item.direction = true;
        item.closed = true;
        continue;
      }
      if (item !== undefined && t.upper === "NULLS") {
        // `NULLS FIRST` / `NULLS LAST` come after the direction.
        item.closed = true;
        j++;
        continue;
      }
    }
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    if (item === undefined) {
      item = { first: t, last: t, direction: false, closed: false };
      items.push(item);
    } else if (!item.closed) item.last = t;
  }
  return items;
}
