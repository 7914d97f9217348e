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

const COLUMNS = [
  "Content",
  "Type",
  "Scope",
  "Project",
  "Tags",
  "Confidence",
  "Created",
  "Last accessed",
  "Accesses",
  "Expires",
];

/** `2026-11-26T10:00:00.000Z` → `2026-11-26 10:00` (UTC, sortable, short). */
function when(iso: string | null | undefined): string {
  if (iso === undefined) return "—";
  if (iso === null) return "never";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function cell(label: string, value: string, className?: string): HTMLTableCellElement {
  return h("td", { "data-label": label, class: className }, value);
}

/** Rows from search hits, which carry the memory subset and a score. */
export function rowsFromHits(hits: readonly SearchHit[]): Row[] {
  return hits.map((hit) => ({ memory: hit.memory, score: hit.score }));
}

/**
 * Renders memories into the page's table: a selection checkbox per row, every field the issue
 * lists, and Edit / Forget buttons (real `<button>`s, so Tab and Enter work). Returns the ids shown.
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
  const headers = [...COLUMNS, ...(options.scored ? ["Score"] : []), "Actions"];
  const all = h("input", { type: "checkbox", "aria-label": "Select all on this page" });
  table.tHead?.replaceChildren(
    h(
      "tr",
      {},
      h("th", { scope: "col" }, all),
      ...headers.map((t) => h("th", { scope: "col" }, t)),
    ),
  );
  const boxes: HTMLInputElement[] = [];
  const body = table.tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren(
    ...rows.map((row) => {
      const m = row.memory;
      const box = h("input", {
        type: "checkbox",
        "aria-label": `Select ${m.content.slice(0, 40)}`,
      });
      box.addEventListener("change", () => {
        if (box.checked) selected.add(m.id);
        else selected.delete(m.id);
        handlers.selectionChanged([...selected]);
      });
      boxes.push(box);
      const edit = h("button", { type: "button", class: "link", "data-action": "edit" }, "Edit");
      const forget = h(
        "button",
        { type: "button", class: "link danger-text", "data-action": "forget" },
        "Forget",
      );
      const tr = h(
        "tr",
        { "data-id": m.id },
        h("td", { class: "select" }, box),
        cell("Content", m.content, "content"),
        cell("Type", m.type),
        cell("Scope", m.scope),
        cell("Project", m.project === undefined ? "—" : m.project || "(none)"),
        cell("Tags", m.tags === undefined ? "—" : m.tags.join(", ")),
        cell("Confidence", m.confidence.toFixed(2), "num"),
        cell("Created", when(m.created_at)),
        cell("Last accessed", when(m.last_accessed)),
        cell("Accesses", m.access_count === undefined ? "—" : String(m.access_count), "num"),
        cell("Expires", when(m.expires_at)),
        ...(options.scored ? [cell("Score", (row.score ?? 0).toFixed(3), "num")] : []),
        h("td", { class: "actions" }, edit, forget),
      );
      edit.addEventListener("click", () => handlers.edit(row, tr));
      forget.addEventListener("click", () => handlers.forget(row));
      return tr;
    }),
  );
  all.addEventListener("change", () => {
    for (const [i, box] of boxes.entries()) {
      box.checked = all.checked;
      const id = rows[i]?.memory.id;
      if (id === undefined) continue;
      if (all.checked) selected.add(id);
      else selected.delete(id);
    }
    handlers.selectionChanged([...selected]);
  });
  handlers.selectionChanged([]);
}
