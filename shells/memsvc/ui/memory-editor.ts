import type { Memory } from "./api.js";
import { h } from "./dom.js";

const TYPES = ["rule", "fact", "episode", "procedure", "preference"];
const SCOPES = ["permanent", "project", "session", "ttl"];

/** The fields a PATCH may change, as the editor collected them. */
export type MemoryChanges = Partial<
  Pick<Memory, "content" | "type" | "scope" | "project" | "tags" | "confidence">
> & { ttl_seconds?: number };

function select(name: string, options: readonly string[], value: string): HTMLSelectElement {
  const element = h("select", { name });
  for (const option of options) element.append(h("option", { selected: option === value }, option));
  return element;
}

function parseTags(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** Only what differs from the stored memory: a PATCH that changes nothing else. */
function changesOf(form: HTMLFormElement, memory: Memory): MemoryChanges {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "");
  const changes: MemoryChanges = {};
  if (text("content") !== memory.content) changes.content = text("content");
  if (text("type") !== memory.type) changes.type = text("type");
  if (text("scope") !== memory.scope) changes.scope = text("scope");
  if (text("project").trim() !== memory.project) changes.project = text("project").trim();
  const tags = parseTags(text("tags"));
  if (tags.join("\u0000") !== memory.tags.join("\u0000")) changes.tags = tags;
  const confidence = Number(text("confidence"));
  if (confidence !== memory.confidence) changes.confidence = confidence;
  if (text("scope") === "ttl" && text("ttl_seconds").trim() !== "") {
    changes.ttl_seconds = Number(text("ttl_seconds"));
  }
  return changes;
}

/**
 * Replaces a table row by an edit form in place (same position, full width). Save sends only the
 * changed fields; Cancel or Escape puts the row back. `save` rejects with the service's message,
 * which the form shows next to its buttons without losing the edits.
 *
 * @example
 * openEditor(tr, memory, 12, (changes) => api.update(memory.id, changes), reload);
 */
export function openEditor(
  tr: HTMLTableRowElement,
  memory: Memory,
  columns: number,
  save: (changes: MemoryChanges) => Promise<void>,
  done: (saved: boolean) => void,
): void {
  const error = h("p", { class: "error", role: "alert" });
  const content = h("textarea", {
    name: "content",
    rows: "3",
    required: true,
    "aria-label": "Content",
  });
  content.value = memory.content;
  const form = h(
    "form",
    { class: "editor", "aria-label": "Edit memory" },
    content,
    h(
      "div",
      { class: "filters" },
      h("label", {}, "Type ", select("type", TYPES, memory.type)),
      h("label", {}, "Scope ", select("scope", SCOPES, memory.scope)),
      h("label", {}, "Project ", h("input", { name: "project", value: memory.project })),
      h("label", {}, "Tags ", h("input", { name: "tags", value: memory.tags.join(", ") })),
      h(
        "label",
        {},
        "Confidence ",
        // Required: an emptied field would read as 0 and quietly zero the memory's confidence.
        h("input", {
          name: "confidence",
          type: "number",
          required: true,
          min: "0",
          max: "1",
          step: "0.01",
          value: String(memory.confidence),
        }),
      ),
      h(
        "label",
        { class: "ttl-only", hidden: memory.scope !== "ttl" },
        "TTL seconds ",
        h("input", {
          name: "ttl_seconds",
          type: "number",
          min: "1",
          step: "1",
          placeholder: "keep",
        }),
      ),
    ),
    error,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, "Save"),
      h("button", { type: "button", class: "secondary", "data-action": "cancel" }, "Cancel"),
    ),
  );
  const editRow = h(
    "tr",
    { role: "row", class: "editing" },
    h("td", { role: "cell", colspan: String(columns) }, form),
  );
  const close = (saved: boolean) => {
    editRow.remove();
    tr.hidden = false;
    done(saved);
  };
  // One save at a time: a second Save (a double click, Enter again) while one is in flight
  // would send the same PATCH twice.
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  let saving = false;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (saving) return;
    const changes = changesOf(form, memory);
    if (Object.keys(changes).length === 0) return close(false);
    error.textContent = "";
    saving = true;
    if (submit !== null) submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    const settle = () => {
      saving = false;
      if (submit !== null) submit.disabled = false;
      form.removeAttribute("aria-busy");
    };
    save(changes).then(
      () => {
        settle();
        close(true);
      },
      (failure: unknown) => {
        settle();
        error.textContent = failure instanceof Error ? failure.message : String(failure);
      },
    );
  });
  form.querySelector('[data-action="cancel"]')?.addEventListener("click", () => close(false));
  // The TTL only means something for scope ttl: offer it only then.
  const scopeSelect = form.querySelector<HTMLSelectElement>('select[name="scope"]');
  const ttlLabel = form.querySelector<HTMLElement>(".ttl-only");
  scopeSelect?.addEventListener("change", () => {
    if (ttlLabel !== null) ttlLabel.hidden = scopeSelect.value !== "ttl";
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close(false);
  });
  tr.hidden = true;
  tr.after(editRow);
  content.focus();
}
