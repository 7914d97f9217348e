/**
 * `JournaledVectorStore`: a write-ahead journal in front of a `VectorStore` (why the service has
 * one: `index.ts` of this folder, and docs/decisions/0005-write-journal.md).
 * Long because: one class, the port's methods and the drain loop that writes the journal to the
 * store, sharing its failure state and waits; its bookkeeping is in `journal-queue.ts` and its
 * merging in `merge-writes.ts`.
 */
import { AgentServicesError } from "../errors.js";
import type {
  Metadata,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../ports/vector-store.js";
import type { JournalEntry, WriteJournal } from "../ports/write-journal.js";
import { JournalQueue, type Queued } from "./journal-queue.js";
import { idsOf, mergeWrites, sizeOf } from "./merge-writes.js";

/** What a {@link JournaledVectorStore} reports (the shell logs it). */
export type JournalEvent =
  /** At startup: entries a crash left in the journal were written to the store. */
  | { readonly kind: "replayed"; readonly entries: number; readonly ids: number }
  /** The store failed; writes are refused until it answers again. */
  | { readonly kind: "store_down"; readonly pendingIds: number; readonly error: unknown }
  /** The store answers again and the journal drains. */
  | { readonly kind: "store_up"; readonly pendingIds: number; readonly failedAttempts: number }
  /** The store, while answering, refused this entry on its own: it is given up. */
  | { readonly kind: "dropped"; readonly ids: readonly string[]; readonly error: unknown };

/** Options of {@link JournaledVectorStore}. */
export interface JournaledVectorStoreOptions {
  /**
   * Waits before the next attempt after the store failed (`attempt` counts from 1), e.g. a
   * backoff capped at a second: it bounds how long writes stay refused after the store is back.
   */
  readonly retryDelay: (attempt: number) => Promise<void>;
  /**
   * Waited before each store write unless a full batch is already waiting, so writes that arrive
   * meanwhile share it (a store that commits with fsyncs then competes less with the journal's
   * own). Default: none.
   */
  readonly batchDelay?: () => Promise<void>;
  /** Most ids written to the journal but not yet to the store; a write waits for room. Default 50,000. */
  readonly maxPendingIds?: number;
  /** Most ids in one store call. Default 2,000. */
  readonly maxBatchIds?: number;
  readonly onEvent?: (event: JournalEvent) => void;
}

/**
 * A {@link VectorStore} that acknowledges a write once a {@link WriteJournal} holds it, and writes
 * it to the store behind the answer, in order, merged into few calls. For a store whose commits
 * are slow (Chroma: several fsyncs per call, whatever its size): a write then costs one journal
 * sync shared by every concurrent writer, and the store gets large batches.
 *
 * - **Durable.** An acknowledged write is in the journal; entries leave it only once the store
 *   has them. A crash leaves them there, and the next start writes them to the store before
 *   anything else (the first call, `bind`, waits for it).
 * - **Read your writes.** `get` of an id with a pending write, `scan`, `count` and
 *   `writeSnapshotMark` first wait until the store has every write acknowledged before them.
 * - **Fails fast.** While the store fails, writes and those waits are refused with
 *   `store_unavailable` (what is already journaled stays and lands once it answers: the journal
 *   is retried with `retryDelay`). An entry the store refuses while it answers (a value it
 *   rejects) is given up and reported as `dropped`, so it cannot block the others.
 * - **Bounded.** At most `maxPendingIds` ids wait for the store; writers wait for room.
 *
 * One process must own the store: another writer would not see what waits in the journal.
 *
 * @example
 * const store = new JournaledVectorStore(new ChromaVectorStore({ url }), new FileWriteJournal(dir), {
 *   retryDelay: (attempt) => sleep(Math.min(50 * 2 ** attempt, 1000)),
 *   onEvent: (event) => logger.info("journal", event),
 * });
 * await store.bind(space); // replays what a crash left first
 * await store.upsert(records); // durable in the journal; Chroma gets it behind the answer
 */
export class JournaledVectorStore implements VectorStore {
  readonly #inner: VectorStore;
  readonly #journal: WriteJournal;
  readonly #retryDelay: (attempt: number) => Promise<void>;
  readonly #batchDelay: (() => Promise<void>) | undefined;
  readonly #maxPending: number;
  readonly #maxBatch: number;
  readonly #emit: (event: JournalEvent) => void;
  readonly #opened: Promise<void>;
  /** Journaled entries the store does not have yet, and who waits for them. */
  readonly #pending = new JournalQueue();
  #draining = false;
  /** Ends the current `batchDelay` early. */
  #hurry: (() => void) | undefined;
  /** Set while the store fails. */
  #failure: AgentServicesError | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  constructor(inner: VectorStore, journal: WriteJournal, options: JournaledVectorStoreOptions) {
    this.#inner = inner;
    this.#journal = journal;
    this.#retryDelay = options.retryDelay;
    this.#batchDelay = options.batchDelay;
    this.#maxPending = options.maxPendingIds ?? 50_000;
    this.#maxBatch = options.maxBatchIds ?? 2_000;
    const onEvent = options.onEvent ?? (() => undefined);
    // A listener that throws must not stop the journal from draining.
    this.#emit = (event) => {
      try {
        onEvent(event);
      } catch {
        /* the listener's problem */
      }
    };
    this.#opened = this.#recover();
    // Reported by the first call that awaits it.
    this.#opened.catch(() => undefined);
  }

  async bind(space: VectorSpace, options?: { readonly replace?: boolean }): Promise<void> {
    await this.#opened;
    await this.#inner.bind(space, options);
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    if (records.length > 0) await this.#write({ op: "upsert", records });
  }

  async updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void> {
    if (updates.length > 0) await this.#write({ op: "update", updates });
  }

  async delete(ids: readonly string[]): Promise<number> {
    await this.#opened;
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    this.#assertWritable();
    // Existence before this delete: a pending write decides when there is one, the store otherwise.
    let existed = 0;
    const ask: string[] = [];
    for (const id of unique) {
      const stored = this.#pending.storedAfterPending(id);
      if (stored === undefined) ask.push(id);
      else if (stored) existed += 1;
    }
    if (ask.length > 0) {
      await this.#until(this.#pending.lastPendingOf(ask));
      existed += (await this.#inner.get(ask)).length;
    }
    await this.#write({ op: "delete", ids: unique });
    return existed;
  }

  async get(ids: readonly string[]): Promise<StoredRecord[]> {
    await this.#opened;
    await this.#until(this.#pending.lastPendingOf(ids));
    return this.#inner.get(ids);
  }

  async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    await this.#settled();
    return this.#inner.scan(cursor, limit);
  }

  async count(): Promise<number> {
    await this.#settled();
    return this.#inner.count();
  }

  async readSnapshotMark(): Promise<string | undefined> {
    await this.#opened;
    return this.#inner.readSnapshotMark?.();
  }

  async writeSnapshotMark(mark: string | undefined): Promise<void> {
    // The mark says "the store holds everything": only true once the journal has drained.
    await this.#settled();
    await this.#inner.writeSnapshotMark?.(mark);
  }

  async ping(): Promise<void> {
    await this.#opened;
    await this.#inner.ping();
  }

  /**
   * Lands what the journal holds (unless the store fails: then the next start does), closes the
   * journal and the store. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#hurry?.();
      const opened = await this.#opened.then(
        () => true,
        () => false,
      );
      if (opened && this.#failure === undefined) await this.#settled().catch(() => undefined);
      this.#closed = true;
      this.#pending.rejectWaiters(closedError());
      await this.#journal.close();
      await this.#inner.close();
    })();
    return this.#closing;
  }

  /** Number of ids journaled and not yet in the store. */
  get pendingIds(): number {
    return this.#pending.ids;
  }

  async #recover(): Promise<void> {
    const leftover = await this.#journal.open();
    if (leftover.length === 0) return;
    let ids = 0;
    for (const entry of mergeWrites(leftover, this.#maxBatch)) {
      await this.#apply(entry);
      ids += sizeOf(entry);
    }
    this.#pending.recovered(leftover.length);
    await this.#journal.discardThrough(leftover.length);
    this.#emit({ kind: "replayed", entries: leftover.length, ids });
  }

  async #write(entry: JournalEntry): Promise<void> {
    await this.#opened;
    this.#assertWritable();
    const size = sizeOf(entry);
    while (this.#pending.ids > 0 && this.#pending.ids + size > this.#maxPending) {
      const room = this.#pending.waitForRoom();
      this.#hurry?.();
      await room;
      this.#assertWritable();
    }
    const position = await this.#journal.append([entry]);
    this.#pending.enqueue(position, entry);
    this.#startDrain();
  }

  #startDrain(): void {
    if (this.#draining) return;
    this.#draining = true;
    void this.#drain().finally(() => {
      this.#draining = false;
      // Entries that arrived as the loop ended.
      if (this.#pending.length > 0 && !this.#closed) this.#startDrain();
    });
  }

  async #drain(): Promise<void> {
    let failedAttempts = 0;
    while (this.#pending.length > 0 && !this.#closed) {
      await this.#gather();
      if (await this.#applyLeading()) {
        if (this.#failure !== undefined) {
          this.#failure = undefined;
          this.#emit({ kind: "store_up", pendingIds: this.#pending.ids, failedAttempts });
        }
        failedAttempts = 0;
        continue;
      }
      failedAttempts += 1;
      await this.#retryDelay(failedAttempts);
    }
  }

  /**
   * Waits `batchDelay` for more writes, unless a full batch waits already or somebody waits for
   * the store (a read, a writer without room, close): they cut it short.
   */
  async #gather(): Promise<void> {
    if (this.#batchDelay === undefined || this.#pending.ids >= this.#maxBatch) return;
    if (this.#pending.hasWaiters || this.#closing !== undefined) return;
    const hurry = new Promise<void>((resolve) => (this.#hurry = resolve));
    await Promise.race([this.#batchDelay(), hurry]);
    this.#hurry = undefined;
  }

  /** Writes the leading entries to the store, merged; false when the store fails. */
  async #applyLeading(): Promise<boolean> {
    const taken = this.#pending.take(this.#maxBatch);
    try {
      for (const entry of mergeWrites(
        taken.map((q) => q.entry),
        this.#maxBatch,
      )) {
        await this.#apply(entry);
      }
      this.#settle(taken);
      return true;
    } catch (error) {
      // Not an outage when the store answers: an entry is what it refuses; write one at a time.
      if ((await this.#storeAnswers()) && (await this.#applyEach(taken))) return true;
      if (this.#failure === undefined) {
        this.#failure = new AgentServicesError(
          "store_unavailable",
          `vector store unavailable; ${this.#pending.ids} journaled writes wait for it`,
          { cause: error },
        );
        this.#pending.rejectWaiters(this.#failure);
        this.#emit({ kind: "store_down", pendingIds: this.#pending.ids, error });
      }
      return false;
    }
  }

  /** Applies entries one by one; false when the store stopped answering on the way. */
  async #applyEach(taken: readonly Queued[]): Promise<boolean> {
    for (const queued of taken) {
      try {
        await this.#apply(queued.entry);
      } catch (error) {
        if (!(await this.#storeAnswers())) return false;
        this.#emit({ kind: "dropped", ids: idsOf(queued.entry), error });
      }
      this.#settle([queued]);
    }
    return true;
  }

  async #storeAnswers(): Promise<boolean> {
    try {
      await this.#inner.ping();
      return true;
    } catch {
      return false;
    }
  }

  async #apply(entry: JournalEntry): Promise<void> {
    switch (entry.op) {
      case "upsert":
        return this.#inner.upsert(entry.records);
      case "update":
        return this.#inner.updateMetadata(entry.updates);
      case "delete":
        await this.#inner.delete(entry.ids);
        return;
    }
  }

  /** The store holds these entries (the leading ones of the queue). */
  #settle(done: readonly Queued[]): void {
    const applied = this.#pending.settle(done);
    // Dropping landed entries is housekeeping: a failure only means they are written again.
    this.#journal.discardThrough(applied).catch(() => undefined);
  }

  /** Resolves once the store holds every entry up to `position`. */
  #until(position: number): Promise<void> {
    if (position <= this.#pending.applied) return Promise.resolve();
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#closed) return Promise.reject(closedError());
    const reached = this.#pending.waitFor(position);
    this.#hurry?.();
    return reached;
  }

  /** Resolves once the store holds every write acknowledged so far. */
  async #settled(): Promise<void> {
    await this.#opened;
    await this.#until(this.#pending.journaled);
  }

  #assertWritable(): void {
    if (this.#closed || this.#closing !== undefined) throw closedError();
    if (this.#failure !== undefined) throw this.#failure;
  }
}

function closedError(): AgentServicesError {
  return new AgentServicesError("store_unavailable", "vector store unavailable: store is closed");
}
