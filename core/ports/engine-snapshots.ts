import type { VectorRecord } from "./vector-store.js";

/** A saved copy of every record the store held when it was saved. */
export interface EngineSnapshot {
  /** The mark it was saved under (see {@link EngineSnapshots}). */
  readonly mark: string;
  /** Number of records in it. */
  readonly count: number;
  /** Its records, page by page (each record once). */
  pages(pageSize: number): Iterable<readonly VectorRecord[]>;
}

/**
 * Where the memory service keeps a copy of its engine between clean runs, so a restart can load
 * from a local file instead of reading every record back from the store (at 100,000 memories a
 * few seconds against most of a minute through Chroma).
 *
 * A snapshot is a cache, never the system of record: it is only used when the store still carries
 * the mark it was saved under. The service saves the snapshot and then writes its mark into the
 * store at clean shutdown, after its last write; after loading one it clears the store's mark
 * before any write. So a crash, a write by another process that clears the mark, or a snapshot
 * from another store all mean a full load from the store.
 *
 * @example
 * const snapshots = new FileEngineSnapshots("/var/lib/memsvc/engine.snapshot");
 * const service = new MemoryService({ store, embedder, clock, snapshots });
 */
export interface EngineSnapshots {
  /**
   * The saved snapshot, or `undefined` when there is none or it cannot be read whole (a torn or
   * corrupt file counts as none).
   */
  load(): Promise<EngineSnapshot | undefined>;
  /** Replaces the saved snapshot with these records under `mark`; durable once it resolves. */
  save(mark: string, records: Iterable<VectorRecord>): Promise<void>;
}
