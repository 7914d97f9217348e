import { api, type Filters, type Stats, type ValueCounts } from "./api.js";
import { byId, h, quoted } from "./dom.js";
import { drawBars } from "./stats-chart.js";

/** Projects and tags shown as chips under the charts; the rest are summed in "+N more". */
const CHIPS = 6;
/** Values the project and tag pickers offer (the most frequent of the whole store). */
const PICKER_VALUES = 1000;

/** What a chip's click does: filter the listing by that project or tag. */
export type ApplyFacet = (field: "project" | "tag", value: string) => void;

/**
 * What the project filter field holds to ask for the memories without a project (`project=""`
 * to the API; an empty field is no project filter). A project literally named so cannot be
 * picked from the page.
 */
export const NO_PROJECT = "(none)";

/** The label of a project value: `""` is the memories without a project. */
const projectLabel = (value: string) => (value === "" ? NO_PROJECT : value);

/**
 * Whether any filter is set; `project: ""` (the memories without a project) is one.
 *
 * @example
 * hasFilters({ project: "" }); // true
 * hasFilters({ q: "" }); // false
 */
export function hasFilters(filters: Filters): boolean {
  return Object.entries(filters).some(
    ([key, value]) => value !== undefined && (value !== "" || key === "project"),
  );
}

/**
 * The filters for the page's sentences (caption, empty state, confirmation), each value quoted in
 * a `<bdi>` (see {@link quoted}); `project: ""` reads as {@link NO_PROJECT}.
 *
 * @example
 * caption.replaceChildren("Memories where ", ...describeFilters({ project: "shop", tag: "a" }));
 * // Memories where project = "shop", tag = "a"
 */
export function describeFilters(filters: Filters): (string | Node)[] {
  return Object.entries(filters).flatMap(([k, v], i) => [
    ...(i === 0 ? [] : [", "]),
    ...(k === "project" && v === "" ? [`project = ${NO_PROJECT}`] : [`${k} = `, ...quoted(v)]),
  ]);
}

/**
 * Shows the counts of the memories passing `filters` (total, by type, scope, project and tag:
 * `GET /v1/stats` with the same filters as the listing) beside the whole store's total, and fills
 * the project and tag pickers with the store's own values (not only those of loaded pages). One
 * stats call without filters (store total and pickers), and one more with them when any is set.
 *
 * @example
 * await refreshCounts({ project: "shop" }, (field, value) => applyFilter(field, value));
 */
export async function refreshCounts(filters: Filters, apply: ApplyFacet): Promise<void> {
  const filtered = hasFilters(filters);
  const [store, matching] = await Promise.all([
    api.stats({}, PICKER_VALUES),
    filtered ? api.stats(filters, CHIPS) : undefined,
  ]);
  const shown = matching ?? store;
  byId("stats-total").textContent = String(shown.total_memories);
  byId("stats-of").textContent = filtered ? ` of ${store.total_memories}` : "";
  byId("stats-what").textContent = filtered ? "memories match the filters" : "memories";
  drawBars(byId("chart-type") as unknown as SVGSVGElement, shown.by_type);
  drawBars(byId("chart-scope") as unknown as SVGSVGElement, shown.by_scope);
  drawChips(byId("facet-project"), shown.by_project, filters.project, "project", apply);
  drawChips(byId("facet-tag"), shown.by_tag, filters.tag, "tag", apply);
  fillPickers(store);
}

function drawChips(
  target: HTMLElement,
  counts: ValueCounts | undefined,
  active: string | undefined,
  field: "project" | "tag",
  apply: ApplyFacet,
): void {
  const values = counts?.values.slice(0, CHIPS) ?? [];
  const hidden = (counts?.distinct ?? 0) - values.length;
  target.replaceChildren(
    ...values.map(({ value, count }) => {
      const label = field === "project" ? projectLabel(value) : value;
      const number = h("span", { class: "chip-count" }, String(count));
      const chip = h(
        "button",
        {
          type: "button",
          class: "chip",
          "aria-pressed": String(value === active),
          title: `Show only ${field} ${label}`,
          "data-value": value,
        },
        // A `<bdi>`: a stored value's bidi controls must not carry its count along with it.
        h("bdi", {}, label),
        " ",
        number,
      );
      chip.addEventListener("click", () => apply(field, value));
      return chip;
    }),
  );
  if (values.length === 0) target.append(h("span", { class: "muted" }, "none"));
  if (hidden > 0) target.append(h("span", { class: "muted" }, ` +${hidden} more`));
}

/**
 * Fills the `<datalist>`s of the project and tag inputs, each option labelled with its count;
 * the project filter's list starts with {@link NO_PROJECT} when some memories have no project.
 */
function fillPickers(store: Stats): void {
  const options = (counts: ValueCounts | undefined) =>
    (counts?.values ?? [])
      .filter(({ value }) => value !== "")
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .map(({ value, count }) => h("option", { value, label: `${count} memories` }));
  const none = store.by_project?.values.find(({ value }) => value === "");
  byId("known-projects").replaceChildren(...options(store.by_project));
  byId("filter-projects").replaceChildren(
    ...(none === undefined
      ? []
      : [h("option", { value: NO_PROJECT, label: `${none.count} memories without a project` })]),
    ...options(store.by_project),
  );
  byId("known-tags").replaceChildren(...options(store.by_tag));
}
