/**
 * `JournaledVectorStore`: a write-ahead journal in front of a `VectorStore` (why the service has
 * one: `index.ts` of this folder, and docs/decisions/0005-write-journal.md).
 * Long because: one class, the port's methods and the drain loop that writes the journal to the
 * store, sharing its failure state and waits; its bookkeeping is in `journal-queue.ts` and its
 * merging in `merge-writes.ts`.
 */
import { AgentServicesError, isAgentServicesError } from "../errors.js";
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
import { mergeWrites, sizeOf } from "./merge-writes.js";

/** What a {@link JournaledVectorStore} reports (the shell logs it): one event per change of state. */
export type JournalEvent =
  /** At startup: entries a crash left in the journal were written to the store. */
  | { readonly kind: "replayed"; readonly entries: number; readonly ids: number }
  /**
   * The store failed a journaled write: it stays in the journal and is retried, in order, and new
   * writes are refused until it lands. `answers`: the store answers its ping (it refuses the write:
   * a full disk, a value it rejects) rather than being unreachable.
   */
  | {
      readonly kind: "store_down";
      readonly pendingIds: number;
      readonly answers: boolean;
      readonly error: unknown;
    }
  /** The store takes the journaled writes again and the journal drains. */
  | { readonly kind: "store_up"; readonly pendingIds: number; readonly failedAttempts: number }
  /** The journal cannot append (a full disk): writes are refused until it can. */
  | { readonly kind: "journal_full"; readonly error: unknown }
  /** The journal appends again. */
  | { readonly kind: "journal_writable" }
  /** At close: the store did not take these in time; the journal keeps them for the next start. */
  | { readonly kind: "backlog_kept"; readonly pendingIds: number; readonly entries: number };

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
  /**
   * Most store time the backlog may stand for, in milliseconds: with `now`, the store's drain
   * rate is measured and the backlog held to this many milliseconds of it (never under one
   * batch). Default 10,000.
   */
  readonly maxBacklogMs?: number;
  /** Milliseconds since some origin; enables the backlog's bound in time. */
  readonly now?: () => number;
  /**
   * Resolves when a writer has waited for room long enough: it is then refused (`store_busy`)
   * rather than wait on. Default: it waits until there is room.
   */
  readonly roomWait?: () => Promise<void>;
  /**
   * Resolves when `close()` (and the snapshot mark's wait before it) has waited long enough for
   * the store to drain: what is left stays in the journal for the next start. Default: no limit.
   */
  readonly drainDeadline?: () => Promise<void>;
  /**
   * After the journal found its disk full, appends are refused up front until this resolves
   * (then one is tried again). Default: every append tries.
   */
  readonly fullDiskProbe?: () => Promise<void>;
  /** Most ids in one store call. Default 2,000. */
  readonly maxBatchIds?: number;
  readonly onEvent?: (event: JournalEvent) => void;
}

/** Why writes are refused now, for `/readyz` (client-safe: no path, no URL). */
export interface WriteRefusal {
  readonly code: "store_busy" | "insufficient_storage";
  readonly reason: string;
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
 * - **Never drops.** A journaled write the store fails (unreachable, or refusing it: a full
 *   disk) stays in the journal and is retried with `retryDelay`, in order, until it lands;
 *   meanwhile new writes and the waits on the store are refused up front with `store_busy`, and
 *   {@link JournaledVectorStore.refusal} says why (for `/readyz`). A journal that cannot append
 *   (its disk is full) refuses writes with `insufficient_storage` until it can.
 * - **Bounded.** At most `maxPendingIds` ids, and at most `maxBacklogMs` of the store's measured
 *   drain rate, wait for the store; writers wait for room, for at most `roomWait`. `close()`
 *   drains until `drainDeadline` and leaves the rest in the journal for the next start.
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
  readonly #maxBacklogMs: number;
  readonly #now: (() => number) | undefined;
  readonly #roomWait: (() => Promise<void>) | undefined;
  readonly #drainDeadline: (() => Promise<void>) | undefined;
  readonly #fullDiskProbe: (() => Promise<void>) | undefined;
  readonly #maxBatch: number;
  readonly #emit: (event: JournalEvent) => void;
  /** Ids per millisecond the store took, averaged over recent batches. */
  #drainRate: number | undefined;
  /** Set while the journal's disk is full. */
  #journalFull: AgentServicesError | undefined;
  /** Whether the next append may try the full disk again. */
  #probeDue = false;
  /** Started by the first wait of a shutdown: when it resolves, the store stops being waited for. */
  #shutdownDeadline: Promise<void> | undefined;
  /** Position of the last entry a start found in the journal. */
  #recoveredThrough = 0;
  #recoveredIds = 0;
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
    this.#maxBacklogMs = options.maxBacklogMs ?? 10_000;
    this.#now = options.now;
    this.#roomWait = options.roomWait;
    this.#drainDeadline = options.drainDeadline;
    this.#fullDiskProbe = options.fullDiskProbe;
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
    // What a crash left lands first (the store is only complete then).
    await this.#until(this.#recoveredThrough);
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
    // The mark says "the store holds everything": only true once the journal has drained. At
    // shutdown (a mark to write) the wait is bounded by `drainDeadline`.
    if (mark === undefined) await this.#settled();
    else await this.#settledWithinDeadline();
    await this.#inner.writeSnapshotMark?.(mark);
  }

  async ping(): Promise<void> {
    await this.#opened;
    await this.#inner.ping();
  }

  /**
   * Lands what the journal holds, until `drainDeadline` (unless the store fails: then the next
   * start does), reports what is left (`backlog_kept`), closes the journal and the store.
   * With `drain: false` it lands nothing more (a stop during the start's replay: nobody waits
   * for it, and the journal keeps the rest for the next start); the batch the store is taking
   * finishes. Idempotent: the first call decides.
   *
   * @example
   * await store.close({ drain: false }); // SIGTERM while a crash's backlog is replayed
   */
  close(options?: { readonly drain?: boolean }): Promise<void> {
    this.#closing ??= (async () => {
      this.#hurry?.();
      const opened = await this.#opened.then(
        () => true,
        () => false,
      );
      if (opened && this.#failure === undefined && options?.drain !== false) {
        await this.#settledWithinDeadline().catch(() => undefined);
      }
      this.#closed = true;
      if (this.#pending.length > 0) {
        this.#emit({
          kind: "backlog_kept",
          pendingIds: this.#pending.ids,
          entries: this.#pending.length,
        });
      }
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

  /**
   * How far the replay of what a crash left in the journal has come (`undefined`: nothing to
   * replay, or done). `bind` (so the service's load) waits for it to finish.
   *
   * @example
   * const r = store.replay; // { done: 12_000, total: 50_000 } (ids)
   */
  get replay(): { readonly done: number; readonly total: number } | undefined {
    if (this.#recoveredThrough === 0) return undefined;
    const total = this.#recoveredIds;
    return { done: Math.max(0, total - this.#pending.ids), total };
  }

  /** Why writes are refused now (`undefined`: they are not), in words a client may read. */
  get refusal(): WriteRefusal | undefined {
    if (this.#journalFull !== undefined) {
      return { code: "insufficient_storage", reason: DISK_FULL };
    }
    if (this.#failure !== undefined) {
      return {
        code: "store_busy",
        reason: `the vector store does not take writes; ${this.#pending.ids} journaled ids wait for it and are retried`,
      };
    }
    return undefined;
  }

  /**
   * Opens the journal; what a crash left in it becomes the first pending writes, which the drain
   * writes to the store before anything else (`bind`'s load waits for them: it reads the store).
   */
  async #recover(): Promise<void> {
    const leftover = await this.#journal.open();
    if (leftover.length === 0) return;
    let position = 0;
    for (const entry of leftover) this.#pending.enqueue((position += 1), entry);
    this.#recoveredThrough = position;
    this.#recoveredIds = this.#pending.ids;
    this.#startDrain();
  }

  async #write(entry: JournalEntry): Promise<void> {
    await this.#opened;
    this.#assertWritable();
    const size = sizeOf(entry);
    let waitedLongEnough = false;
    const timer = this.#pending.ids + size > this.#roomLimit() ? this.#roomWait?.() : undefined;
    void timer?.then(() => {
      waitedLongEnough = true;
      this.#pending.wakeRoomWaiters();
    });
    while (this.#pending.ids > 0 && this.#pending.ids + size > this.#roomLimit()) {
      if (waitedLongEnough) throw this.#backlogFull();
      const room = this.#pending.waitForRoom();
      this.#hurry?.();
      await room;
      this.#assertWritable();
    }
    let position: number;
    try {
      position = await this.#journal.append([entry]);
    } catch (error) {
      if (isAgentServicesError(error, "insufficient_storage")) this.#diskFull(error);
      throw error;
    }
    if (this.#journalFull !== undefined) {
      this.#journalFull = undefined;
      this.#emit({ kind: "journal_writable" });
    }
    this.#pending.enqueue(position, entry);
    this.#startDrain();
  }

  /** The journal found its disk full: refuse appends up front until the next probe. */
  #diskFull(error: AgentServicesError): void {
    this.#probeDue = false;
    if (this.#journalFull === undefined) this.#emit({ kind: "journal_full", error });
    this.#journalFull = error;
    void (this.#fullDiskProbe?.() ?? Promise.resolve()).then(() => (this.#probeDue = true));
  }

  /** Ids that may wait for the store: `maxPendingIds`, less when the store drains slowly. */
  #roomLimit(): number {
    if (this.#drainRate === undefined) return this.#maxPending;
    const inTime = Math.max(this.#maxBatch, Math.floor(this.#drainRate * this.#maxBacklogMs));
    return Math.min(this.#maxPending, inTime);
  }

  #backlogFull(): AgentServicesError {
    const seconds =
      this.#drainRate === undefined ? undefined : this.#pending.ids / this.#drainRate / 1000;
    return new AgentServicesError(
      "store_busy",
      `the write journal's backlog is full: ${this.#pending.ids} ids wait for the vector store` +
        (seconds === undefined ? "" : ` (about ${seconds.toFixed(1)} s of its writes)`) +
        "; retry later",
    );
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
    if (this.#pending.applied < this.#recoveredThrough) return;
    const hurry = new Promise<void>((resolve) => (this.#hurry = resolve));
    await Promise.race([this.#batchDelay(), hurry]);
    this.#hurry = undefined;
  }

  /**
   * Writes the leading entries to the store, merged; false when the store fails them (they stay,
   * first in line, for the next attempt: nothing is given up).
   */
  async #applyLeading(): Promise<boolean> {
    const taken = this.#pending.take(this.#maxBatch);
    const started = this.#now?.();
    try {
      for (const entry of mergeWrites(
        taken.map((q) => q.entry),
        this.#maxBatch,
      )) {
        await this.#apply(entry);
      }
    } catch (error) {
      if (this.#failure === undefined) {
        const answers = await this.#storeAnswers();
        this.#failure = new AgentServicesError(
          "store_busy",
          `writes are refused for now: the vector store ${answers ? "refuses" : "does not answer"} ` +
            `journaled writes (${this.#pending.ids} ids wait in the journal and are retried); retry later`,
          { cause: error },
        );
        this.#pending.rejectWaiters(this.#failure);
        this.#emit({ kind: "store_down", pendingIds: this.#pending.ids, answers, error });
      }
      return false;
    }
    this.#measure(taken, started);
    this.#settle(taken);
    return true;
  }

  /** Folds the time a batch took into the drain rate. */
  #measure(taken: readonly Queued[], started: number | undefined): void {
    if (started === undefined || this.#now === undefined) return;
    const ms = Math.max(1, this.#now() - started);
    const rate = taken.reduce((sum, q) => sum + sizeOf(q.entry), 0) / ms;
    this.#drainRate = this.#drainRate === undefined ? rate : 0.7 * this.#drainRate + 0.3 * rate;
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
    if (this.#recoveredThrough > 0 && applied >= this.#recoveredThrough) {
      this.#emit({ kind: "replayed", entries: this.#recoveredThrough, ids: this.#recoveredIds });
      this.#recoveredThrough = 0;
    }
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

  /** {@link #settled}, refused with `store_busy` once the shutdown's `drainDeadline` passed. */
  async #settledWithinDeadline(): Promise<void> {
    if (this.#drainDeadline === undefined) return this.#settled();
    this.#shutdownDeadline ??= this.#drainDeadline();
    const late = this.#shutdownDeadline.then(() => {
      throw new AgentServicesError(
        "store_busy",
        `the vector store did not take the journal's ${this.#pending.ids} pending ids before the drain deadline; the journal keeps them`,
      );
    });
    late.catch(() => undefined);
    await Promise.race([this.#settled(), late]);
  }

  #assertWritable(): void {
    if (this.#closed || this.#closing !== undefined) throw closedError();
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#journalFull !== undefined && !this.#probeDue) {
      throw new AgentServicesError(
        "insufficient_storage",
        `${DISK_FULL}; writes are refused until space is freed`,
        {
          cause: this.#journalFull,
        },
      );
    }
  }
}

/** What a full journal disk is called where a client reads it. */
const DISK_FULL = "the write journal's disk is full";

function closedError(): AgentServicesError {
  return new AgentServicesError("store_unavailable", "vector store unavailable: store is closed");
}
