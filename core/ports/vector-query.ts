import type { MetadataValue, StoredRecord } from "./vector-store.js";

/**
 * A condition on record metadata, in a small vendor-neutral language: a comparison of one key
 * with a value, or the conjunction or disjunction of conditions.
 *
 * @example
 * const live: RecordFilter = { key: "expires_at_ms", op: "gt", value: nowMs };
 * const inProject: RecordFilter = { or: [{ key: "project", op: "eq", value: "billing" },
 *   { key: "scope", op: "eq", value: "permanent" }] };
 * const both: RecordFilter = { and: [live, inProject] };
 */
export type RecordFilter =
  | {
      readonly key: string;
      readonly op: "eq" | "gt" | "lte";
      readonly value: MetadataValue;
    }
  | { readonly key: string; readonly op: "in"; readonly value: readonly MetadataValue[] }
  | { readonly and: readonly RecordFilter[] }
  | { readonly or: readonly RecordFilter[] };

/** One record found by {@link VectorQuery.nearest}. */
export interface NearestRecord {
  readonly record: StoredRecord;
  /** Cosine similarity of the record's vector and the query vector, in [-1, 1]. */
  readonly similarity: number;
}

/**
 * Queries answered by the store itself, for services that do not hold the memories in process
 * (the memory service's replica mode: several stateless services on one collection). Kept apart
 * from {@link VectorStore}, which stays a storage port: the default (owner) mode never queries.
 * A store's own nearest-neighbour search may be approximate.
 *
 * @example
 * const hits = await query.nearest(vector, 10, { key: "expires_at_ms", op: "gt", value: nowMs });
 * const duplicates = await query.find({ key: "content_hash", op: "eq", value: hash }, 100);
 */
export interface VectorQuery {
  /** Up to `limit` records passing `filter`, most similar to `vector` first. */
  nearest(
    vector: readonly number[],
    limit: number,
    filter: RecordFilter | undefined,
  ): Promise<NearestRecord[]>;
  /** Up to `limit` records passing `filter`, in no particular order. */
  find(filter: RecordFilter, limit: number): Promise<StoredRecord[]>;
  /** The number of records passing `filter`. */
  count(filter: RecordFilter): Promise<number>;
}
