import type { RecordFilter } from "./vector-query.js";
import type { Metadata, MetadataValue } from "./vector-store.js";

/**
 * Whether a record's metadata passes a {@link RecordFilter}, as a store would judge it: `gt` and
 * `lte` compare numbers only (a missing key or a non-number fails them), `eq` and `in` compare
 * values exactly. The reference the in-memory fake answers with.
 *
 * @example
 * matchesRecordFilter({ project: "billing" }, { key: "project", op: "eq", value: "billing" }); // true
 */
export function matchesRecordFilter(metadata: Metadata, filter: RecordFilter): boolean {
  if ("and" in filter) return filter.and.every((f) => matchesRecordFilter(metadata, f));
  if ("or" in filter) return filter.or.some((f) => matchesRecordFilter(metadata, f));
  const value: MetadataValue | undefined = metadata[filter.key];
  if (value === undefined) return false;
  switch (filter.op) {
    case "eq":
      return value === filter.value;
    case "in":
      return filter.value.includes(value);
    case "gt":
      return typeof value === "number" && typeof filter.value === "number" && value > filter.value;
    case "lte":
      return typeof value === "number" && typeof filter.value === "number" && value <= filter.value;
  }
}
