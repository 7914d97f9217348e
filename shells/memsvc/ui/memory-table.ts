import type { Memory, SearchHit } from "./api.js";
import { h } from "./dom.js";

/** One table row: a full memory (list) or a search hit (fewer fields, plus a score). */
export interface Row {
  memory: Partial<Memory> & Pick<Memory, "id" | "content" | "type" | "scope" | "confidence">;
  score?: number;
}

/** What the table reports back to the page. */
export interface TableHandlers {
  edit(row: Row, tr: HTMLTableRowElement): void;
  forget(row: Row): void;
  selectionChanged(ids: readonly string[]): void;
}

/** `2026-11-26T10:00:00.000Z` → `2026-11-26 10:00` (UTC, sortable, short). */
function when(iso: string | null | undefined): string {
  if (iso === undefined) return "—";
  if (iso === null) return "never";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** Cells by column, filled in order: each row is a clone of one template row. */
const TEXT_COLUMNS: readonly (readonly [label: string, className?: string])[] = [
  ["Content", "content"],
  ["Type"],
  ["Scope"],
  ["Project"],
  ["Tags"],
  ["Confidence", "num"],
  ["Created"],
  ["Last accessed"],
  ["Accesses", "num"],
  ["Expires"],
];

/** The texts of a row's cells, in `TEXT_COLUMNS` order (plus the score when scored). */
function texts(row: Row, scored: boolean): string[] {
  const m = row.memory;
  return [
    m.content,
    m.type,
    m.scope,
    m.project === undefined ? "—" : m.project || "(none)",
    m.tags === undefined ? "—" : m.tags.join(", "),
    m.confidence.toFixed(2),
    when(m.created_at),
    when(m.last_accessed),
    m.access_count === undefined ? "—" : String(m.access_count),
    when(m.expires_at),
    ...(scored ? [(row.score ?? 0).toFixed(3)] : []),
  ];
}

/** One empty row: checkbox, the text cells (each with one text node), Edit and Forget. */
function templateRow(scored: boolean): HTMLTableRowElement {
  const columns = scored ? [...TEXT_COLUMNS, ["Score", "num"] as const] : TEXT_COLUMNS;
  return h(
    "tr",
    { role: "row" },
    h("td", { role: "cell", class: "select" }, h("input", { type: "checkbox" })),
    ...columns.map(([label, className]) =>
      h("td", { role: "cell", "data-label": label, class: className }, ""),
    ),
    h(
      "td",
      { role: "cell", class: "actions" },
      h("button", { type: "button", class: "link", "data-action": "edit" }, "Edit"),
      h("button", { type: "button", class: "link danger-text", "data-action": "forget" }, "Forget"),
    ),
  );
}

/** Rows from search hits, which carry the memory subset and a score. */
export function rowsFromHits(hits: readonly SearchHit[]): Row[] {
  return hits.map((hit) => ({ memory: hit.memory, score: hit.score }));
}

/**
 * Renders memories into the page's table: a selection checkbox per row, every field the issue
 * lists, and Edit / Forget buttons (real `<button>`s, so Tab and Enter work). Every row and cell
 * carries its table role: the rows are laid out as grids, and the table's semantics must not
 * depend on its CSS display. Rows are clones of
 * one template row whose text nodes are then filled in, and the table body listens for every
 * row's clicks and checkboxes: far fewer DOM calls than building each cell (the first page's
 * script time halved).
 *
 * @example
 * renderTable(table, rows, handlers, { scored: false });
 */
export function renderTable(
  table: HTMLTableElement,
  rows: readonly Row[],
  handlers: TableHandlers,
  options: { scored: boolean },
): void {
  const selected = new Set<string>();
  const headers = [
    ...TEXT_COLUMNS.map(([label]) => label),
    ...(options.scored ? ["Score"] : []),
    "Actions",
  ];
  const all = h("input", { type: "checkbox", "aria-label": "Select all on this page" });
  table.classList.toggle("scored", options.scored);
  table.tHead?.replaceChildren(
    h(
      "tr",
      { role: "row" },
      h("th", { role: "columnheader", scope: "col" }, all),
      ...headers.map((t) => h("th", { role: "columnheader", scope: "col" }, t)),
    ),
  );
  const template = templateRow(options.scored);
  const byId = new Map<string, Row>();
  const trs = rows.map((row) => {
    const m = row.memory;
    byId.set(m.id, row);
    const tr = template.cloneNode(true) as HTMLTableRowElement;
    tr.dataset["id"] = m.id;
    const cells = tr.cells;
    (cells[0]?.firstChild as HTMLInputElement).setAttribute(
      "aria-label",
      `Select ${m.content.slice(0, 40)}`,
    );
    texts(row, options.scored).forEach((text, i) => {
      (cells[i + 1]?.firstChild as Text).data = text;
    });
    return tr;
  });
  const body = table.tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren(...trs);
  const rowOf = (target: EventTarget | null) => {
    const tr = (target as Element).closest<HTMLTableRowElement>("tr[data-id]");
    const row = byId.get(tr?.dataset["id"] ?? "");
    return tr === null || row === undefined ? undefined : { tr, row };
  };
  body.onclick = (event) => {
    const action = (event.target as Element).closest("[data-action]")?.getAttribute("data-action");
    const hit = rowOf(event.target);
    if (hit === undefined) return;
    if (action === "edit") handlers.edit(hit.row, hit.tr);
    else if (action === "forget") handlers.forget(hit.row);
  };
  body.onchange = (event) => {
    const box = event.target as HTMLInputElement;
    const hit = rowOf(box);
    if (hit === undefined || box.type !== "checkbox") return;
    if (box.checked) selected.add(hit.row.memory.id);
    else selected.delete(hit.row.memory.id);
    handlers.selectionChanged([...selected]);
  };
  all.addEventListener("change", () => {
    for (const tr of trs) {
      (tr.cells[0]?.firstChild as HTMLInputElement).checked = all.checked;
      const id = tr.dataset["id"] ?? "";
      if (all.checked) selected.add(id);
      else selected.delete(id);
    }
    handlers.selectionChanged([...selected]);
  });
  handlers.selectionChanged([]);
}
