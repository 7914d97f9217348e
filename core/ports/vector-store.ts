/**
 * A store of vectors with a document and flat metadata each, queried by cosine similarity.
 *
 * The port is vendor-neutral: the memory core maps its Memory objects to flat metadata, and each
 * adapter (Chroma, the in-memory fake) translates {@link VectorFilter} into its own filter
 * language. Vendor types never cross this interface.
 */

/** A metadata value: flat scalars only (Chroma rejects arrays and objects). */
export type MetadataValue = string | number | boolean;

/** Flat metadata of one record. */
export type Metadata = Readonly<Record<string, MetadataValue>>;

/**
 * A filter over metadata. A comparison on a field the record does not have never matches.
 * `gt`/`gte`/`lt`/`lte` compare numbers only.
 *
 * @example
 * const live: VectorFilter = {
 *   and: [
 *     { field: "project", op: "eq", value: "billing" },
 *     { field: "expires_at_ms", op: "gt", value: Date.parse("2026-11-21T10:00:00Z") },
 *   ],
 * };
 */
export type VectorFilter =
  | { readonly field: string; readonly op: "eq"; readonly value: MetadataValue }
  | { readonly field: string; readonly op: "gt" | "gte" | "lt" | "lte"; readonly value: number }
  | { readonly field: string; readonly op: "in"; readonly values: readonly MetadataValue[] }
  | { readonly and: readonly VectorFilter[] }
  | { readonly or: readonly VectorFilter[] };

/** One record to write. */
export interface VectorRecord {
  readonly id: string;
  readonly vector: readonly number[];
  readonly document: string;
  readonly metadata: Metadata;
}

/** One record as read back (vectors are not returned: nothing in the core needs them). */
export interface StoredRecord {
  readonly id: string;
  readonly document: string;
  readonly metadata: Metadata;
}

/** One similarity-query hit. */
export interface VectorMatch extends StoredRecord {
  /** Cosine similarity in [-1, 1] (1 − cosine distance). */
  readonly similarity: number;
}

/** A similarity query. */
export interface VectorQuery {
  readonly vector: readonly number[];
  /** How many nearest candidates to return at most (the candidate count). */
  readonly topK: number;
  readonly filter?: VectorFilter;
}

/** The vector space a store is bound to: the embedder id and the vector length. */
export interface VectorSpace {
  readonly embedderId: string;
  readonly dimensions: number;
}

/**
 * What the memory service needs from a vector store.
 *
 * Implementations throw `AgentServicesError("store_unavailable", …)` when the backend fails, and
 * `AgentServicesError("embedder_mismatch", …)` from {@link VectorStore.bind} when the stored
 * vectors come from another embedder.
 *
 * @example
 * await store.bind({ embedderId: embedder.id, dimensions: embedder.dimensions });
 * await store.upsert([{ id, vector, document: "text", metadata: { type: "fact" } }]);
 * const hits = await store.query({ vector, topK: 10, filter: { field: "type", op: "eq", value: "fact" } });
 */
export interface VectorStore {
  /**
   * Binds the store to a vector space. The first bind records it; a later bind with another
   * embedder id or dimension throws `embedder_mismatch` naming both.
   */
  bind(space: VectorSpace): Promise<void>;
  /**
   * Inserts or replaces records by id. Resolves once the write is durable.
   *
   * `fresh: true`: the caller guarantees none of these ids is stored (e.g. freshly generated
   * UUIDs): the store may skip work it does to replace existing records; an existing id is still
   * replaced, but metadata keys it had may survive.
   *
   * @example
   * await store.upsert([{ id: crypto.randomUUID(), vector, document, metadata }], { fresh: true });
   */
  upsert(records: readonly VectorRecord[], options?: { readonly fresh?: boolean }): Promise<void>;
  /** The `topK` most similar records that match the filter, most similar first. */
  query(query: VectorQuery): Promise<VectorMatch[]>;
  /** Records by id; ids that are not stored are omitted. Order follows `ids`. */
  get(ids: readonly string[]): Promise<StoredRecord[]>;
  /** Records matching a filter (all records without one), at most `limit` of them. */
  find(filter?: VectorFilter, limit?: number): Promise<StoredRecord[]>;
  /** Merges the given metadata keys into existing records; unknown ids are ignored. */
  updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void>;
  /** Deletes records by id; returns how many of them existed. */
  delete(ids: readonly string[]): Promise<number>;
  /** Number of records matching a filter (all records without one). */
  count(filter?: VectorFilter): Promise<number>;
  /** Resolves when the backend answers; throws `store_unavailable` otherwise. */
  ping(): Promise<void>;
  /** Releases resources (connections, child processes). Safe to call twice. */
  close(): Promise<void>;
}
