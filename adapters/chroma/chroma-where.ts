import type { Where } from "chromadb";
import type { MetadataValue, VectorFilter } from "../../core/ports/vector-store.js";

/**
 * A {@link VectorFilter} in Chroma's `where` language: `undefined` when it matches everything
 * (Chroma rejects `{}`), `"none"` when it can match nothing (an empty `in` or `or`, which Chroma
 * rejects too), so the caller can answer without asking the server.
 *
 * Chroma also insists on exactly one top-level key, on at least two operands for `$and`/`$or`,
 * and on `$in` lists of one type; this translation respects all three.
 *
 * @example
 * toChromaWhere({ and: [
 *   { field: "project", op: "eq", value: "billing" },
 *   { field: "exp", op: "gt", value: 100 },
 * ] });
 * // { $and: [{ project: { $eq: "billing" } }, { exp: { $gt: 100 } }] }
 */
export function toChromaWhere(filter: VectorFilter | undefined): Where | undefined | "none" {
  if (filter === undefined) return undefined;
  if ("and" in filter) {
    const parts: Where[] = [];
    for (const part of filter.and) {
      const where = toChromaWhere(part);
      if (where === "none") return "none";
      if (where !== undefined) parts.push(where);
    }
    return combine("$and", parts);
  }
  if ("or" in filter) {
    const parts: Where[] = [];
    for (const part of filter.or) {
      const where = toChromaWhere(part);
      // One branch that matches everything makes the whole `or` match everything.
      if (where === undefined) return undefined;
      if (where !== "none") parts.push(where);
    }
    return parts.length === 0 ? "none" : combine("$or", parts);
  }
  switch (filter.op) {
    case "eq":
      return { [filter.field]: { $eq: filter.value } };
    case "gt":
      return { [filter.field]: { $gt: filter.value } };
    case "gte":
      return { [filter.field]: { $gte: filter.value } };
    case "lt":
      return { [filter.field]: { $lt: filter.value } };
    case "lte":
      return { [filter.field]: { $lte: filter.value } };
    case "in":
      return membership(filter.field, filter.values);
  }
}

function combine(operator: "$and" | "$or", parts: Where[]): Where | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return operator === "$and" ? { $and: parts } : { $or: parts };
}

/** `$in` per value type, joined with `$or` when the list mixes types. */
function membership(field: string, values: readonly MetadataValue[]): Where | "none" {
  const byType = new Map<string, MetadataValue[]>();
  for (const value of values) {
    const group = byType.get(typeof value) ?? [];
    group.push(value);
    byType.set(typeof value, group);
  }
  const parts = [...byType.values()].map(
    (group) => ({ [field]: { $in: group as string[] | number[] | boolean[] } }) as Where,
  );
  return combine("$or", parts) ?? "none";
}
