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
  forget(row: Row, tr: HTMLTableRowElement): void;
  selectionChanged(ids: readonly string[]): void;
}

/**
 * A time for people: `just now`, `5 min ago`, `3 h ago`, `12 d ago` (or `in 3 h` for an expiry),
 * the date beyond two months; the absolute time goes in the cell's title.
 */
export function relative(iso: string | null | undefined, nowMs = Date.now()): string {
  if (iso === undefined) return "—";
  if (iso === null) return "never";
  const ms = Date.parse(iso) - nowMs;
  if (!Number.isFinite(ms)) return iso;
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const say = (n: number, unit: string) => (ms > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`);
  if (minutes < 1) return "just now";
  if (minutes < 60) return say(minutes, "min");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return say(hours, "h");
  const days = Math.round(hours / 24);
  return days < 60 ? say(days, "d") : iso.slice(0, 10);
}

/** `2026-11-26T10:00:00.000Z` → `2026-11-26 10:00 UTC`, for a cell's title. */
function absolute(iso: string | null | undefined): string | undefined {
  return typeof iso === "string" ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : undefined;
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
  ["Accessed"],
  ["Expires"],
];
/** The columns holding an instant (their cells get the absolute time as a title). */
const INSTANTS: Readonly<Record<string, "created_at" | "last_accessed" | "expires_at">> = {
  Created: "created_at",
  Accessed: "last_accessed",
  Expires: "expires_at",
};

/** The texts of a row's cells, in `TEXT_COLUMNS` order (plus the score when scored). */
function texts(row: Row, scored: boolean): string[] {
  const m = row.memory;
  return [
    m.content,
    m.type,
    m.scope,
    m.project === undefined ? "—" : m.project || "(none)",
    m.tags === undefined ? "—" : m.tags.filter((t) => t.trim() !== "").join(", ") || "—",
    m.confidence.toFixed(2),
    relative(m.created_at),
    m.access_count === undefined
      ? "—"
      : m.access_count === 0
        ? "never"
        : `${m.access_count}× · ${relative(m.last_accessed)}`,
    relative(m.expires_at),
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
    // Right after the checkbox: reachable without scrolling sideways on a narrow screen.
    h(
      "td",
      { role: "cell", class: "actions" },
      h("button", { type: "button", class: "link", "data-action": "edit" }, "Edit"),
      h("button", { type: "button", class: "link danger-text", "data-action": "forget" }, "Forget"),
    ),
    ...columns.map(([label, className]) =>
      h("td", { role: "cell", "data-label": label, class: className }, ""),
    ),
  );
}

/** What a column sorts by: the value itself, not the text shown (`3 h ago`). */
function sortKey(row: Row | undefined, column: string | undefined): string | number {
  if (row === undefined) return "";
  const m = row.memory;
  switch (column) {
    case "Confidence":
      return m.confidence;
    case "Score":
      return row.score ?? 0;
    case "Created":
      return Date.parse(m.created_at ?? "") || 0;
    case "Accessed":
      return m.access_count ?? 0;
    case "Expires":
      return m.expires_at === null ? Number.MAX_SAFE_INTEGER : Date.parse(m.expires_at ?? "") || 0;
    case "Tags":
      return (m.tags ?? []).join(", ");
    case "Project":
      return m.project ?? "";
    case "Type":
      return m.type;
    case "Scope":
      return m.scope;
    default:
      return m.content.toLowerCase();
  }
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
  const headers = [...TEXT_COLUMNS.map(([label]) => label), ...(options.scored ? ["Score"] : [])];
  const all = h("input", { type: "checkbox", "aria-label": "Select all on this page" });
  table.classList.toggle("scored", options.scored);
  table.tHead?.replaceChildren(
    h(
      "tr",
      { role: "row" },
      h("th", { role: "columnheader", scope: "col" }, all),
      h("th", { role: "columnheader", scope: "col" }, "Actions"),
      ...headers.map((t, i) =>
        h(
          "th",
          { role: "columnheader", scope: "col", "aria-sort": "none" },
          h("button", { type: "button", class: "sort", "data-column": String(i) }, t),
        ),
      ),
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
      const cell = cells[i + 2] as HTMLTableCellElement;
      (cell.firstChild as Text).data = text;
      const instant = INSTANTS[cell.dataset["label"] ?? ""];
      const title = instant === undefined ? undefined : absolute(m[instant]);
      if (title !== undefined) cell.title = title;
    });
    return tr;
  });
  // Sort the rows shown by any column (numbers as numbers, instants by time), both ways.
  let sortedBy: { column: number; ascending: boolean } | undefined;
  const head = table.tHead as HTMLTableSectionElement;
  head.onclick = (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>("button.sort");
    if (button === null) return;
    const column = Number(button.dataset["column"]);
    const ascending = sortedBy?.column === column ? !sortedBy.ascending : true;
    sortedBy = { column, ascending };
    const key = (tr: HTMLTableRowElement) =>
      sortKey(byId.get(tr.dataset["id"] ?? ""), headers[column]);
    const ordered = [...trs].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const order =
        typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return ascending ? order : -order;
    });
    table.tBodies[0]?.replaceChildren(...ordered);
    for (const th of table.tHead?.querySelectorAll("th[aria-sort]") ?? []) {
      th.setAttribute("aria-sort", "none");
    }
    button.parentElement?.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  };
  const body = table.tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren(...trs);
  const rowOf = (target: EventTarget | null) => {
    const tr = (target as Element).closest<HTMLTableRowElement>("tr[data-id]");
    const row = byId.get(tr?.dataset["id"] ?? "");
    return tr === null || row === undefined ? undefined : { tr, row };
  };
  body.onclick = (event) => {
    const content = (event.target as Element).closest("td.content");
    if (content !== null) content.classList.toggle("expanded");
    const action = (event.target as Element).closest("[data-action]")?.getAttribute("data-action");
    const hit = rowOf(event.target);
    if (hit === undefined) return;
    if (action === "edit") handlers.edit(hit.row, hit.tr);
    else if (action === "forget") handlers.forget(hit.row, hit.tr);
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
