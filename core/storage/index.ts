/**
 * The storage engine of the memory service: how what the service holds in memory reaches its
 * durable store, and comes back from it at start.
 *
 * - `journaled-vector-store.ts`: `JournaledVectorStore`, a write-ahead journal in front of the
 *   store (a decorator of the `VectorStore` port: neither the service nor the store adapter knows
 *   about it), and `journal-queue.ts`, its bookkeeping of what waits for the store.
 * - `merge-writes.ts`: `mergeWrites`, the one write-merge (the journal's drain and the Chroma
 *   adapter's `WriteBatcher` both use it), with the effect of applying the writes one by one.
 * - `access-write-behind.ts`: recall's access counts, persisted behind the answer.
 * - `engine-load.ts`: loading the engine from the store (or its snapshot) at `init()`, and saving
 *   the snapshot at shutdown.
 *
 * Why the service owns a journal in front of its store (docs/decisions/0005-write-journal.md):
 * a write with the embedded Chroma used to wait for a Chroma commit, about 8 fsyncs and 40-50 ms
 * whatever its size, which held the service to ~96 remembers/s and ~1,000 memories/s through the
 * batch endpoint on a 2-core machine. Now a write is acknowledged once the journal has it
 * fsynced (one `fdatasync`, ~4 ms, shared by every write that arrived meanwhile), the engine is
 * updated, and the store gets the journaled writes behind the answers, in order, merged into
 * large calls; Chroma's write path drains ~1,300 ids/s here, so sustained writes above that wait
 * for room (50,000 pending ids, or 10 s of the store's measured drain rate, at most) rather than
 * grow the journal without bound. The store
 * stays the system of record: entries leave the journal only once the store holds them, what a
 * crash left is replayed into the store at the next start before anything else, and reads that
 * need the store to be complete (a scan, a count, the snapshot mark) wait until it has drained.
 * When the store fails or refuses a journaled write, that write stays in the journal and is retried
 * in order (never given up) and new writes are refused until it lands, so an outage stays visible.
 * Replicas and a Chroma URL write to the store directly (no journal): other processes must see
 * the writes at once.
 *
 * @example
 * import { JournaledVectorStore } from "agent-services";
 * const store = new JournaledVectorStore(chroma, journal, { retryDelay: backoff });
 */
export { JournaledVectorStore } from "./journaled-vector-store.js";
export type {
  JournalEvent,
  JournaledVectorStoreOptions,
  WriteRefusal,
} from "./journaled-vector-store.js";
export { JournalQueue, type Queued } from "./journal-queue.js";
export { idsOf, mergeWrites, sizeOf, type StoreWrite } from "./merge-writes.js";
export {
  ACCESS_WRITE_MAX_IDS,
  AccessWriteBehind,
  type AccessWriteBehindDeps,
} from "./access-write-behind.js";
export {
  LOAD_PAGE_SIZE,
  loadEngine,
  saveEngineSnapshot,
  type EngineLoadDeps,
  type LoadProgress,
  type LoadSource,
} from "./engine-load.js";
