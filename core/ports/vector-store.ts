/**
 * The durable store of the memory service: records of a vector, a document and flat metadata,
 * written and read by id, and scanned in pages when the service starts.
 *
 * It is a storage port, not a query engine: the service ranks and filters in process (see
 * `MemoryEngine`), so nothing here searches. Vendor types never cross this interface.
 */

/** A metadata value: flat scalars only (Chroma rejects arrays and objects). */
export type MetadataValue = string | number | boolean;

/** Flat metadata of one record. */
export type Metadata = Readonly<Record<string, MetadataValue>>;

/** One record to write. */
export interface VectorRecord {
  readonly id: string;
  readonly vector: readonly number[];
  readonly document: string;
  readonly metadata: Metadata;
}

/** One record as read back by id (without its vector: reads by id never need it). */
export interface StoredRecord {
  readonly id: string;
  readonly document: string;
  readonly metadata: Metadata;
}

/** One page of a {@link VectorStore.scan}. */
export interface ScanPage {
  /** The records of this page, with their vectors. */
  readonly records: readonly VectorRecord[];
  /** Pass to the next `scan` call; `undefined` when this was the last page. */
  readonly next: string | undefined;
}

/**
 * One record for {@link VectorStore.insertNew}: stored only if nobody else may have written its
 * like meanwhile.
 */
export interface NewRecord {
  readonly record: VectorRecord;
  /** The cluster-lock key (`ClusterLocks.runAll`) whose holders write records like it. */
  readonly lockKey: string;
  /** What a record like it has in its metadata (e.g. its content key's fields). */
  readonly match: Metadata;
  /** The change-feed seq the caller's view held every change up to when it chose to insert. */
  readonly seen: number;
}

/** The vector space a store is bound to: the embedder id and the vector length. */
export interface VectorSpace {
  readonly embedderId: string;
  readonly dimensions: number;
}

/**
 * What the memory service needs from its durable store.
 *
 * Implementations throw `AgentServicesError("store_unavailable", …)` when the backend fails, and
 * `AgentServicesError("embedder_mismatch", …)` from {@link VectorStore.bind} when the stored
 * vectors come from another embedder. A write resolves only once it is durable: what it wrote is
 * what a restart reads back.
 *
 * @example
 * await store.bind({ embedderId: embedder.id, dimensions: embedder.dimensions });
 * await store.upsert([{ id, vector, document: "text", metadata: { type: "fact" } }]);
 * for (let page = await store.scan(undefined, 1000); ; page = await store.scan(page.next, 1000)) {
 *   for (const record of page.records) engine.load(record);
 *   if (page.next === undefined) break;
 * }
 */
export interface VectorStore {
  /**
   * Binds the store to a vector space. The first bind records it; a later bind with another
   * embedder id or dimension throws `embedder_mismatch` naming both, unless `replace` is set
   * (after every stored vector was re-embedded: `memsvc reindex`).
   */
  bind(space: VectorSpace, options?: { readonly replace?: boolean }): Promise<void>;
  /**
   * Writes records by id: a new id is inserted; an existing one gets the new vector and document,
   * and the given metadata keys merged into its metadata (as {@link VectorStore.updateMetadata}).
   */
  upsert(records: readonly VectorRecord[]): Promise<void>;
  /**
   * Inserts new records without waiting for a lock, for a replica that found no duplicate in its
   * own view: an item is left out when a cluster lock holds its `lockKey` right then, when a
   * record changed after its `seen` has metadata containing its `match` (a like that its caller
   * could not have seen), or when an earlier item of the call has the same `lockKey`. What is
   * stored is logged in the change feed like an upsert. Resolves, once the rest is committed,
   * with the ids left out (the caller takes the lock and looks again). Optional: a store shared
   * by replicas offers it (PostgreSQL, the in-memory shared store); a caller without it locks.
   */
  insertNew?(items: readonly NewRecord[]): Promise<ReadonlySet<string>>;
  /** Records by id; ids that are not stored are omitted. Order follows `ids`. */
  get(ids: readonly string[]): Promise<StoredRecord[]>;
  /** Merges the given metadata keys into existing records; unknown ids are ignored. */
  updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void>;
  /** Deletes records by id; returns how many of them existed. */
  delete(ids: readonly string[]): Promise<number>;
  /**
   * One page of at most `limit` records with their vectors, starting at `cursor` (`undefined`:
   * the first page). Paging through a store that nobody writes meanwhile returns every record
   * exactly once. For loading the service's engine at startup.
   */
  scan(cursor: string | undefined, limit: number): Promise<ScanPage>;
  /** Number of records. */
  count(): Promise<number>;
  /**
   * The snapshot mark (see `EngineSnapshots`): a short string the owner of the store writes
   * after saving a snapshot of everything the store holds, and clears before its first write
   * after loading one. `undefined` when none is set. Optional: a store without it never lets the
   * service load from a snapshot.
   */
  readSnapshotMark?(): Promise<string | undefined>;
  /** Sets (`undefined`: clears) the snapshot mark; durable once it resolves, like a write. */
  writeSnapshotMark?(mark: string | undefined): Promise<void>;
  /** Resolves when the backend answers; throws `store_unavailable` otherwise. */
  ping(): Promise<void>;
  /** Releases resources (connections, child processes). Safe to call twice. */
  close(): Promise<void>;
}
