import type { RecallAnswer, RecallFactors, RecallItem } from "./api.js";
import { h } from "./dom.js";

/** The factors in the order shown, with their short label and what they mean (the tooltip). */
const FACTORS: readonly (readonly [keyof RecallFactors, string, string])[] = [
  ["relevance", "rel", "relevance: the calibrated relevance lexical, semantic and nbr give"],
  ["lexical", "lex", "lexical: BM25+ over the most the message's terms could score"],
  ["semantic", "sem", "semantic: the cosine's rise above the message's mean over the store"],
  [
    "neighbour",
    "nbr",
    "neighbour: evidence lent by the memories written just before and after it (same project and scope)",
  ],
  ["recency", "rec", "recency: newer scores higher (half-life decay)"],
  ["frequency", "freq", "frequency: how often recall returned it"],
  ["type", "type", "type: the weight of its type"],
  ["scope", "scope", "scope: the weight of its scope"],
  ["confidence", "conf", "confidence: the confidence stored with it"],
];

/** Cut memories listed before the rest are summed in "+N more". */
const CUT_SHOWN = 5;

const figure = (value: number) => value.toFixed(2);

/** One line of factors: `rel 0.89 lex 0.60 sem 0.88 rec 1.00 …`, each name explained on hover. */
function factorLine(factors: RecallFactors | undefined): HTMLElement {
  const line = h("span", { class: "why-factors" });
  if (factors === undefined) return line;
  for (const [key, label, meaning] of FACTORS) {
    const pair = h("span", { class: "why-factor" }, h("abbr", { title: meaning }, label));
    pair.append(` ${figure(factors[key])}`);
    line.append(pair, " ");
  }
  return line;
}

function itemRow(text: string, title: string, item: RecallItem, kind: string): HTMLLIElement {
  return h(
    "li",
    { class: kind, "data-id": item.id },
    h(
      "span",
      { class: "why-head" },
      h("span", { class: "why-text", title }, text),
      " ",
      h("strong", { class: "why-score", title: "recall score" }, figure(item.score)),
      ...(item.context_of === undefined
        ? []
        : [
            " ",
            h(
              "span",
              {
                class: "why-context muted",
                title: `written next to the recalled episode ${item.context_of}: its context, not relevant on its own`,
              },
              `around ${item.context_of.slice(0, 8)}`,
            ),
          ]),
    ),
    factorLine(item.factors),
  );
}

/**
 * The recall preview's "why": for each memory in the context (in context order, beside its line)
 * its score and factors, then what the relevance floor dropped and what the budget cut (best
 * first, the first five listed), from a recall asked with `explain: true`. Shows nothing for an
 * answer without `explain`.
 *
 * @example
 * renderRecallExplain(byId("recall-explain"), await api.recall("deploys?", 500, ""));
 */
export function renderRecallExplain(target: HTMLElement, answer: RecallAnswer): void {
  const explain = answer.explain;
  const items = answer.items ?? [];
  if (explain === undefined) {
    target.replaceChildren();
    target.hidden = true;
    return;
  }
  // The context is a header line, then one line per item in the same order.
  const lines = answer.context.split("\n").slice(1);
  const cut = explain.cut_by_budget;
  const summary = h(
    "p",
    { class: "why-summary muted" },
    `floor ${figure(explain.min_score)} · ${explain.candidates} candidates, ` +
      `${explain.below_min_score} below the floor, ${cut.length} cut by the budget`,
  );
  const included = h(
    "ol",
    { class: "why-list", "aria-label": "Why each memory is in the context" },
    ...items.map((item, i) => {
      const line = lines[i] ?? `[${item.type}] ${item.id}`;
      return itemRow(line, line, item, "included");
    }),
  );
  const children: HTMLElement[] = [summary, included];
  if (cut.length > 0) {
    children.push(
      h("p", { class: "why-cut-title" }, `Cut by the budget (${cut.length})`),
      h(
        "ul",
        { class: "why-list", "aria-label": "Relevant memories the budget left out" },
        ...cut.slice(0, CUT_SHOWN).map((item) => {
          const text = `[${item.type}] ${item.id.slice(0, 8)} · ${item.tokens ?? "?"} tokens`;
          return itemRow(
            text,
            `${item.id} (${item.scope}, created ${item.created_at})`,
            item,
            "cut",
          );
        }),
      ),
    );
    if (cut.length > CUT_SHOWN) {
      children.push(h("p", { class: "muted" }, `+${cut.length - CUT_SHOWN} more`));
    }
  }
  target.replaceChildren(...children);
  target.hidden = false;
}
