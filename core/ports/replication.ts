import type { VectorRecord } from "./vector-store.js";

/**
 * What several memory services on one shared store (replicas) need besides the store itself:
 * the store's committed changes in order ({@link ChangeFeed}), so each replica keeps its
 * in-process engine equal to the store, and locks that hold across every process on the store
 * ({@link ClusterLocks}), so "find a duplicate, else insert" and read-modify-write stay exact when
 * two replicas write at the same moment. The PostgreSQL adapter implements both; a store owned by
 * one process (embedded Chroma) needs neither.
 */

/** One committed change of a shared store. */
export interface StoreChange {
  /** Its position in the feed: 1, 2, 3, … in commit order, without gaps. */
  readonly seq: number;
  /** The record it changed. */
  readonly id: string;
  /**
   * The record as the store holds it when the change is read (this change or a later one);
   * `undefined`: the record is deleted. Applying a change twice, or an older change after a
   * newer one of the same id, converges to the same state as long as every change is applied.
   */
  readonly record: VectorRecord | undefined;
}

/**
 * What a store tells its own process's feed listeners about a commit it made (see
 * {@link ChangeFeed.listen}): the records the commit created, with their seqs.
 */
export interface OwnCommit {
  /**
   * The changes of the commit whose write created its record (the id was not stored before):
   * the store then holds exactly the record the write sent, so a writer that adds that same
   * record to its engine right after already holds the change and need not apply it again.
   */
  readonly created: readonly { readonly seq: number; readonly id: string }[];
}

/**
 * The committed changes of a shared store, in commit order.
 *
 * A replica reads {@link ChangeFeed.head}, loads the store with `VectorStore.scan`, then applies
 * every change after that head: records written during the scan are applied again, which
 * converges. It is woken by {@link ChangeFeed.listen} and catches up by sequence after any
 * disconnect, so no change is lost or applied out of order.
 *
 * Implementations throw `AgentServicesError("store_unavailable", …)` when the backend fails.
 *
 * @example
 * let applied = await feed.head();
 * // … load the store …
 * for (const change of await feed.changesSince(applied, 1000)) { apply(change); applied = change.seq; }
 */
export interface ChangeFeed {
  /** The seq of the last committed change (0 when there is none). */
  head(): Promise<number>;
  /**
   * At most `limit` changes with `seq > after`, in seq order, without gaps. Returns a first
   * change whose seq is not `after + 1` when the changes in between are no longer kept: the
   * caller must then reload the whole store.
   */
  changesSince(after: number, limit: number): Promise<StoreChange[]>;
  /**
   * A string that names the change at `seq` in this store's history (e.g. its seq, id and commit
   * instant), or `undefined` when the feed no longer keeps it (or never had it). Two stores that
   * give the same stamp for a seq held the same records after that change. Optional: without it a
   * replica never loads from a snapshot (`ReplicaSnapshots`).
   */
  stamp?(seq: number): Promise<string | undefined>;
  /**
   * Calls `onCommit` soon after anyone commits a change (with the head it knows, or 0 when it does
   * not know it). For a commit made through this process's own store (the `VectorStore` handed
   * out with this feed), it is also called with `own`, synchronously before the write resolves,
   * so a writer can note which changes its engine holds already. And `onConnection(false, error)` / `onConnection(true)` when the notification
   * channel drops and comes back (a listener then catches up by sequence: changes committed
   * while it was down are not announced). Resolves once listening; the returned function stops.
   */
  listen(
    onCommit: (head: number, own?: OwnCommit) => void,
    onConnection?: (up: boolean, error?: unknown) => void,
  ): Promise<() => Promise<void>>;
}

/** What a {@link ClusterLocks.runAll} task learns once its keys are held. */
export interface HeldLocks {
  /**
   * The feed's head as read once every key was held (every change committed before is at or
   * below it), when the store can tell it without a round trip of its own; absent otherwise.
   */
  readonly head?: number;
}

/**
 * Exclusive sections across every process that shares a store.
 *
 * @example
 * await locks.runAll(["remember\u0000<hash>"], async () => insertUnlessDuplicate());
 * if (await locks.claimTurn("sweep-expired", 60_000)) await sweep();
 */
export interface ClusterLocks {
  /**
   * Runs `task` while holding every key exclusively: no other process (or call of this one)
   * holding one of the keys runs meanwhile. Two calls never deadlock whatever the order of their
   * keys (implementations retry an acquisition the backend aborted as a deadlock). The keys are
   * released when `task` settles. The task is told the feed's head once they are held, when the
   * store knows it ({@link HeldLocks}).
   */
  runAll<T>(keys: readonly string[], task: (held: HeldLocks) => Promise<T>): Promise<T>;
  /**
   * True for exactly one caller per `intervalMs` and `name` across every process on the store
   * (the first to ask once the interval has passed); false for the others. For work that must
   * run once per cluster, such as the expiry sweep.
   */
  claimTurn(name: string, intervalMs: number): Promise<boolean>;
}
