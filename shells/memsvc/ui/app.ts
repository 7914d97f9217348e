import { ApiError, api, type Filters, type Memory } from "./api.js";
import { confirmForget } from "./confirm-dialog.js";
import { announce, byId, h, quoted } from "./dom.js";
import { describeFilters, hasFilters, NO_PROJECT, refreshCounts } from "./filter-counts.js";
import { openEditor } from "./memory-editor.js";
import { renderTable, rowsFromHits, type Row } from "./memory-table.js";
import { wireRecallPreview } from "./recall-preview.js";
import { tokenStore } from "./token-store.js";
import { forgetTenant, showTenantPicker } from "./tenant-picker.js";

/** What the table shows: a page of the list (cursor paging) or the answer of a search. */
type View =
  | { kind: "list"; filters: Filters; cursors: (string | undefined)[]; page: number }
  | { kind: "search"; message: string; filters: Filters };

const status = byId("status");
const loadInfo = byId("load-info");
const table = byId<HTMLTableElement>("memories");
const filtersForm = byId<HTMLFormElement>("filters");
const searchForm = byId<HTMLFormElement>("search");
const pageSize = byId<HTMLSelectElement>("page-size");
const forgetSelected = byId<HTMLButtonElement>("forget-selected");
let view: View = { kind: "list", filters: {}, cursors: [undefined], page: 0 };
let selection: readonly string[] = [];

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function readFilters(): Filters {
  const data = new FormData(filtersForm);
  const filters: Filters = {};
  for (const key of ["project", "type", "scope", "tag", "q"] as const) {
    const value = String(data.get(key) ?? "").trim();
    if (value !== "") filters[key] = key === "project" && value === NO_PROJECT ? "" : value;
  }
  return filters;
}

/** Any call's failure: back to the token form on 401, else a message in the status line. */
function fail(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    showGate(`${error.message}: enter the token again`);
    return;
  }
  announce(status, describe(error), "error");
}

/** The counts of what the current view's filters select, and the pickers' values. */
async function refreshStats(): Promise<void> {
  await refreshCounts(view.filters, applyFacet);
}

/** A project or tag chip: filter the listing by it (again: drop that filter). */
function applyFacet(field: "project" | "tag", value: string): void {
  const input = filtersForm.elements.namedItem(field) as HTMLInputElement;
  const typed = field === "project" && value === "" ? NO_PROJECT : value;
  input.value = view.filters[field] === value ? "" : typed;
  filtersForm.requestSubmit();
}

function show(rows: Row[], scored: boolean, emptyText: readonly (string | Node)[]): void {
  renderTable(table, rows, { edit, forget, selectionChanged }, { scored });
  const empty = byId("empty");
  empty.hidden = rows.length > 0;
  empty.replaceChildren(...emptyText);
  table.hidden = rows.length === 0;
}

let latest = 0;

/** Shows the current view. Only the latest call renders: a slower earlier answer is dropped. */
async function load(): Promise<void> {
  const call = ++latest;
  if (view.kind === "search") {
    const { results } = await api.search(view.message, view.filters, Number(pageSize.value));
    if (call !== latest) return;
    show(rowsFromHits(results), true, ["Nothing found for ", ...quoted(view.message), "."]);
    byId("table-caption").replaceChildren("Search results for ", ...quoted(view.message));
    setPager(false, false, "search");
    loadInfo.textContent = `${results.length} results`;
    return;
  }
  const { filters, cursors, page } = view;
  const answer = await api.list(filters, Number(pageSize.value), cursors[page]);
  if (call !== latest) return;
  cursors[page + 1] = answer.next_cursor ?? undefined;
  const filtered = hasFilters(filters);
  show(
    answer.memories.map((memory) => ({ memory })),
    false,
    filtered
      ? ["No memories match ", ...describeFilters(filters), "."]
      : ["No memories yet. Store one with POST /v1/remember (see the README), then reload."],
  );
  byId("table-caption").replaceChildren(
    ...(filtered ? ["Memories where ", ...describeFilters(filters)] : ["Memories, newest first"]),
  );
  setPager(page > 0, answer.next_cursor !== null, `page ${page + 1}`);
  const shown = answer.memories.length;
  loadInfo.textContent = `${shown} shown`;
}

function setPager(hasPrevious: boolean, hasNext: boolean, label: string): void {
  byId<HTMLButtonElement>("prev-page").disabled = !hasPrevious;
  byId<HTMLButtonElement>("next-page").disabled = !hasNext;
  byId("page-label").textContent = label;
  byId("search-clear").hidden = view.kind !== "search";
}

/** Reloads the counts and the view; `then` runs once the new rows are in (to put the focus back). */
function reload(then?: () => void): void {
  void Promise.all([refreshStats(), load().then(then)]).catch(fail);
}

/** A row's Edit or Forget button: where the keyboard's focus goes back after a change. */
const rowButton = (tr: Element | null | undefined, action: "edit" | "forget") =>
  tr?.querySelector<HTMLButtonElement>(`[data-action=${action}]`)?.focus();

function selectionChanged(ids: readonly string[]): void {
  selection = ids;
  forgetSelected.disabled = ids.length === 0;
  forgetSelected.textContent =
    ids.length === 0 ? "Forget selected" : `Forget ${ids.length} selected`;
}

function edit(row: Row, tr: HTMLTableRowElement): void {
  const full =
    row.memory.tags === undefined ? api.get(row.memory.id) : Promise.resolve(row.memory as Memory);
  let merged = false;
  full.then((memory) => {
    const columns = tr.cells.length;
    openEditor(
      tr,
      memory,
      columns,
      async (changes) => {
        const updated = await api.update(memory.id, changes);
        merged = updated.deduplicated === true;
      },
      (saved) => {
        if (!saved) return void tr.querySelector<HTMLButtonElement>("[data-action=edit]")?.focus();
        announce(status, merged ? "Saved: merged into an identical memory." : "Saved.");
        reload(() => rowButton(table.querySelector(`tr[data-id="${memory.id}"]`), "edit"));
      },
    );
  }, fail);
}

function forget(row: Row, tr: HTMLTableRowElement): void {
  const at = [...(table.tBodies[0]?.rows ?? [])].indexOf(tr);
  const preview =
    row.memory.content.length > 80 ? `${row.memory.content.slice(0, 80)}…` : row.memory.content;
  const question = ["Forget this memory? ", ...quoted(preview), " It cannot be restored."];
  void confirmForget(question).then(async (ok) => {
    if (!ok) return;
    try {
      await api.forget(row.memory.id);
      announce(status, "Forgotten.");
      // The focus was on the row that is gone: the row now in its place (or the last) takes it.
      reload(() => {
        const rows = table.tBodies[0]?.rows;
        rowButton(rows?.[Math.min(at, rows.length - 1)], "forget");
      });
    } catch (error) {
      fail(error);
    }
  });
}

forgetSelected.addEventListener("click", () => {
  const ids = selection;
  void confirmForget(`Forget ${ids.length} selected memories? They cannot be restored.`).then(
    async (ok) => {
      if (!ok) return;
      try {
        announce(status, `Forgot ${await api.forgetEach(ids)} memories.`);
        reload();
      } catch (error) {
        fail(error);
        reload();
      }
    },
  );
});

byId("forget-matching").addEventListener("click", () => {
  const filters = view.kind === "list" ? view.filters : readFilters();
  const everything = !hasFilters(filters);
  const body = everything ? ("all" as const) : filters;
  void (async () => {
    try {
      const { matched = 0 } = await api.forgetMatching(body, true);
      if (matched === 0) return announce(status, "Nothing matches: nothing to forget.");
      const what = everything
        ? [`ALL ${matched} memories`]
        : [`${matched} memories matching `, ...describeFilters(filters)];
      const question = ["Forget ", ...what, "? They cannot be restored."];
      if (!(await confirmForget(question, `Forget ${matched}`))) return;
      const { deleted } = await api.forgetMatching(body, false);
      announce(status, `Forgot ${deleted} memories.`);
      if (view.kind === "list") view = { ...view, cursors: [undefined], page: 0 };
      reload();
    } catch (error) {
      fail(error);
    }
  })();
});

filtersForm.addEventListener("submit", (event) => {
  event.preventDefault();
  view = { kind: "list", filters: readFilters(), cursors: [undefined], page: 0 };
  reload();
});
filtersForm.addEventListener("reset", () => {
  view = { kind: "list", filters: {}, cursors: [undefined], page: 0 };
  setTimeout(reload); // after the form has cleared its fields
});
searchForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const message = String(new FormData(searchForm).get("message") ?? "").trim();
  if (message === "") return;
  view = { kind: "search", message, filters: readFilters() };
  reload();
});
byId("search-clear").addEventListener("click", () => {
  searchForm.reset();
  view = { kind: "list", filters: readFilters(), cursors: [undefined], page: 0 };
  reload();
});
byId("next-page").addEventListener("click", () => {
  if (view.kind !== "list" || view.cursors[view.page + 1] === undefined) return;
  view.page++;
  load().catch(fail);
});
byId("prev-page").addEventListener("click", () => {
  if (view.kind !== "list" || view.page === 0) return;
  view.page--;
  load().catch(fail);
});
pageSize.addEventListener("change", () => {
  if (view.kind === "list") view = { ...view, cursors: [undefined], page: 0 };
  load().catch(fail);
});
document.addEventListener("keydown", (event) => {
  const target = event.target as HTMLElement;
  const typing = target.closest("input, textarea, select, [contenteditable]") !== null;
  if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    byId("search-input").focus();
  }
});

/**
 * Back to the token form, signed out: no token, and no tenant picked with it (the next key may be
 * another operator's, or a tenant key that a leftover `X-Memsvc-Tenant` would get refused).
 */
function showGate(message = ""): void {
  tokenStore.clear();
  forgetTenant();
  document.getElementById("tenant-picker")?.remove();
  byId("browser").hidden = true;
  byId("sign-out").hidden = true;
  byId("gate").hidden = false;
  byId("token-error").textContent = message;
  byId("token-input").focus();
}

function showBrowser(): void {
  byId("gate").hidden = true;
  byId("browser").hidden = false;
  byId("sign-out").hidden = tokenStore.read() === null;
}

/** Resolves once the next frame has been drawn and the page's main thread is idle. */
const afterPaint = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 500 })),
  );

/**
 * Opens the browser: the first page of the list alone, shown as soon as it is in, then the stats
 * once that page is on screen. The list call is the one the user waits for: asked for alone, it
 * does not share the service, the network and the page's main thread with the stats, and the
 * chart (whose size is reserved in index.html, so nothing moves) is drawn in a later frame.
 * Rejects only when the list says the token is wrong (401: ask for one); any other failure shows
 * the page with the message in the status line.
 */
function open(): Promise<void> {
  view = { kind: "list", filters: {}, cursors: [undefined], page: 0 };
  const stats = () => void afterPaint().then(refreshStats).catch(fail);
  return load().then(
    () => {
      showBrowser();
      stats();
      // The operator's key: a tenant picker (issue 23); a tenant key: none.
      void showTenantPicker(() => {
        view = { kind: "list", filters: {}, cursors: [undefined], page: 0 };
        reload();
      }).catch(fail);
    },
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) throw error;
      showBrowser();
      fail(error);
      stats();
    },
  );
}

byId<HTMLFormElement>("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>("token-input");
  const problem = tokenStore.problem(input.value.trim());
  if (problem !== undefined) return showGate(problem);
  tokenStore.save(input.value.trim());
  open().then(
    () => {
      input.value = "";
    },
    (error: unknown) => {
      const wrong = error instanceof ApiError && error.status === 401;
      showGate(wrong ? `Wrong token (${error.message}).` : describe(error));
    },
  );
});
byId("sign-out").addEventListener("click", () => showGate());

wireRecallPreview(byId<HTMLFormElement>("recall"), fail);

const createForm = byId<HTMLFormElement>("create");
createForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const data = new FormData(createForm);
  const field = (name: string) => String(data.get(name) ?? "").trim();
  const tags = field("tags")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  const body: Record<string, unknown> = {
    content: field("content"),
    type: field("type"),
    scope: field("scope"),
  };
  if (field("project") !== "") body["project"] = field("project");
  if (tags.length > 0) body["tags"] = tags;
  api.remember(body).then((answer) => {
    announce(
      status,
      answer.deduplicated === true ? "Already remembered: merged into it." : "Remembered.",
    );
    byId<HTMLTextAreaElement>("create-content").value = "";
    if (view.kind === "list") view = { ...view, cursors: [undefined], page: 0 };
    reload();
  }, fail);
});

byId("export").addEventListener("click", () => {
  api.exportText().then((text) => {
    const lines = text === "" ? 0 : text.trimEnd().split("\n").length;
    const link = h("a", {
      href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })),
      download: `memories-${new Date().toISOString().slice(0, 10)}.ndjson`,
    });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    announce(status, `Exported ${lines} memories.`);
  }, fail);
});

const importFile = byId<HTMLInputElement>("import-file");
// A real button opens the (hidden) file field: a label for it could not take the keyboard's focus.
byId("import").addEventListener("click", () => importFile.click());
importFile.addEventListener("change", () => {
  const file = importFile.files?.[0];
  if (file === undefined) return;
  announce(status, `Importing ${file.name}…`);
  api.importText(file).then((answer) => {
    importFile.value = "";
    announce(
      status,
      `Imported ${answer.imported}, merged ${answer.deduplicated}, rejected ${answer.rejected.length}.`,
    );
    reload();
  }, fail);
});

// Open straight away when the stored token (or no token, on a service without one) is accepted.
open().catch((error: unknown) => {
  if (error instanceof ApiError && error.status === 401) showGate();
  else fail(error);
});
