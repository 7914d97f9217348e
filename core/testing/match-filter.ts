import type { Metadata, VectorFilter } from "../ports/vector-store.js";

/**
 * Whether `metadata` satisfies `filter`, with the semantics every VectorStore shares (and the
 * Chroma adapter's `where` translation has): a comparison on a missing field never matches, and
 * range comparisons match numbers only.
 *
 * @example
 * matchesFilter({ type: "fact", n: 3 }, { field: "n", op: "gt", value: 2 }); // true
 */
export function matchesFilter(metadata: Metadata, filter: VectorFilter | undefined): boolean {
  if (filter === undefined) return true;
  if ("and" in filter) return filter.and.every((f) => matchesFilter(metadata, f));
  if ("or" in filter) return filter.or.some((f) => matchesFilter(metadata, f));
  if (!Object.hasOwn(metadata, filter.field)) return false;
  const actual = metadata[filter.field];
  switch (filter.op) {
    case "eq":
      return actual === filter.value;
    case "in":
      return filter.values.includes(actual as string | number | boolean);
    case "gt":
      return typeof actual === "number" && actual > filter.value;
    case "gte":
      return typeof actual === "number" && actual >= filter.value;
    case "lt":
      return typeof actual === "number" && actual < filter.value;
    case "lte":
      return typeof actual === "number" && actual <= filter.value;
  }
}
