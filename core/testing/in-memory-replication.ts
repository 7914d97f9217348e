// Long because: the shared store, its feed, its locks and `insertNew` share the rows and the
// change log, which stay private to one class.
import { AgentServicesError } from "../errors.js";
import { KeyedLock } from "../memory/keyed-lock.js";
import type { ChangeFeed, ClusterLocks, OwnCommit, StoreChange } from "../ports/replication.js";
import type {
  Metadata,
  NewRecord,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../ports/vector-store.js";

/** What one replica of an {@link InMemorySharedStore} gets: its store, feed and locks. */
export interface InMemoryReplicaPorts {
  readonly store: VectorStore;
  readonly feed: ChangeFeed;
  readonly locks: ClusterLocks;
}

/** A replica's own-commit listeners: told synchronously, before its write resolves. */
type OwnListeners = Set<(head: number, own: OwnCommit) => void>;

interface Row {
  readonly vector: readonly number[];
  readonly document: string;
  readonly metadata: Metadata;
}

/** Stores made so far (each names its feed's stamps apart). */
let storesMade = 0;

/**
 * One shared store in memory with a change feed and cluster locks, handing each replica its own
 * ports ({@link InMemorySharedStore.replica}): the in-memory counterpart of the PostgreSQL
 * adapter, for unit tests of replicas and for library users. Every write appends one change per
 * id to a gapless log and wakes the listeners on the next microtask (the writing replica's own
 * listeners also at once, with the records the write created: see `ChangeFeed.listen`). `failWith(error)` makes every
 * call of every replica fail with `store_unavailable` and drops the listeners' channel (they are
 * told `up: false`, then `up: true` when it heals); `forgetChangesBefore(seq)` drops old changes,
 * so a replica behind them sees a gap. `insertNew` leaves out a record whose lock key a task
 * holds or waits for, or whose like (metadata containing its `match`) changed after its `seen`.

 *
 * @example
 * const shared = new InMemorySharedStore();
 * const a = new MemoryService({ ...shared.replica(), embedder, clock });
 * const b = new MemoryService({ ...shared.replica(), embedder, clock });
 */
export class InMemorySharedStore {
  readonly #rows = new Map<string, Row>();
  #changes: { seq: number; id: string }[] = [];
  #head = 0;
  /** Names this store and its history in the feed's stamps (a restore starts a new one). */
  #epoch = `store-${(storesMade += 1)}.0`;
  #space: VectorSpace | undefined;
  #failure: Error | undefined;
  readonly #listeners = new Set<{
    onCommit: (head: number) => void;
    onConnection: ((up: boolean, error?: unknown) => void) | undefined;
  }>();
  readonly #lock = new KeyedLock();
  readonly #turns = new Map<string, number>();
  readonly #nowMs: () => number;

  /**
   * `nowMs` is the clock of `claimTurn` (e.g. a `ManualClock`'s); without one time stands still,
   * so each name's first claim wins and no later one does.
   */
  constructor(options: { readonly nowMs?: () => number } = {}) {
    this.#nowMs = options.nowMs ?? (() => 0);
  }

  /** The seq of the last change. */
  get head(): number {
    return this.#head;
  }

  /** Records held. */
  get size(): number {
    return this.#rows.size;
  }

  /** Fails every call with `store_unavailable` (undefined heals); listeners see the channel drop. */
  failWith(error: Error | undefined): void {
    const wasDown = this.#failure !== undefined;
    this.#failure = error;
    if (wasDown === (error !== undefined)) return;
    for (const listener of this.#listeners) {
      queueMicrotask(() => listener.onConnection?.(error === undefined, error));
    }
  }

  /** Drops the changes before `seq` from the log (a replica behind them must reload). */
  forgetChangesBefore(seq: number): void {
    this.#changes = this.#changes.filter((change) => change.seq >= seq);
  }

  /**
   * Empties the store and rewinds its feed to `head` (0: as new), as a database restored from a
   * backup taken before anything was written.
   */
  restoreTo(head: number): void {
    this.#rows.clear();
    this.#changes = this.#changes.filter((change) => change.seq <= head);
    this.#head = head;
    this.#epoch = `${this.#epoch}.restored`;
  }

  /** A new replica's ports on this store. */
  replica(): InMemoryReplicaPorts {
    const own: OwnListeners = new Set();
    return { store: this.#storeFor(own), feed: this.#feed(own), locks: this.#locks() };
  }

  #check(): void {
    if (this.#failure !== undefined) {
      throw new AgentServicesError("store_unavailable", "shared store unavailable", {
        cause: this.#failure,
      });
    }
  }

  #commit(ids: Iterable<string>, own: OwnListeners, created: ReadonlySet<string>): void {
    const createdChanges: { seq: number; id: string }[] = [];
    for (const id of ids) {
      this.#head += 1;
      this.#changes.push({ seq: this.#head, id });
      if (created.has(id)) createdChanges.push({ seq: this.#head, id });
    }
    const head = this.#head;
    for (const onCommit of own) onCommit(head, { created: createdChanges });
    for (const listener of this.#listeners) queueMicrotask(() => listener.onCommit(head));
  }

  /** Writes records (an existing id's metadata keys merged) and commits their changes. */
  #upsert(records: readonly VectorRecord[], own: OwnListeners): void {
    const created = new Set<string>();
    for (const record of records) {
      const previous = this.#rows.get(record.id);
      if (previous === undefined) created.add(record.id);
      this.#rows.set(record.id, {
        vector: [...record.vector],
        document: record.document,
        metadata: { ...previous?.metadata, ...record.metadata },
      });
    }
    this.#commit(
      records.map((r) => r.id),
      own,
      created,
    );
  }

  #storeFor(own: OwnListeners): VectorStore {
    let closed = false;
    const check = (): void => {
      if (closed) throw new AgentServicesError("store_unavailable", "store is closed");
      this.#check();
    };
    return {
      bind: async (space, options = {}) => {
        check();
        if (this.#space === undefined || options.replace === true) {
          this.#space = space;
          return;
        }
        if (
          this.#space.embedderId !== space.embedderId ||
          this.#space.dimensions !== space.dimensions
        ) {
          throw new AgentServicesError(
            "embedder_mismatch",
            `the store holds vectors of embedder "${this.#space.embedderId}" (${this.#space.dimensions} dimensions), not "${space.embedderId}" (${space.dimensions} dimensions)`,
          );
        }
      },
      upsert: async (records: readonly VectorRecord[]) => {
        check();
        this.#upsert(records, own);
      },
      insertNew: async (items: readonly NewRecord[]) => {
        check();
        const left = new Set<string>();
        const since = Math.min(...items.map((item) => item.seen));
        const recent = this.#changes.filter((change) => change.seq > since);
        const taken = new Set<string>();
        const stored: VectorRecord[] = [];
        for (const { record, lockKey, match, seen } of items) {
          const like = recent.some(({ seq, id }) => {
            const row = this.#rows.get(id);
            return seq > seen && row !== undefined && contains(row.metadata, match);
          });
          if (like || taken.has(lockKey) || this.#lock.busy(lockKey)) {
            left.add(record.id);
            continue;
          }
          taken.add(lockKey);
          stored.push(record);
        }
        if (stored.length > 0) this.#upsert(stored, own);
        return left;
      },
      get: async (ids: readonly string[]): Promise<StoredRecord[]> => {
        check();
        return ids.flatMap((id) => {
          const row = this.#rows.get(id);
          return row === undefined
            ? []
            : [{ id, document: row.document, metadata: { ...row.metadata } }];
        });
      },
      updateMetadata: async (updates) => {
        check();
        const changed: string[] = [];
        for (const { id, metadata } of updates) {
          const row = this.#rows.get(id);
          if (row === undefined) continue;
          this.#rows.set(id, { ...row, metadata: { ...row.metadata, ...metadata } });
          changed.push(id);
        }
        if (changed.length > 0) this.#commit(changed, own, NONE);
      },
      delete: async (ids) => {
        check();
        const deleted = [...new Set(ids)].filter((id) => this.#rows.delete(id));
        if (deleted.length > 0) this.#commit(deleted, own, NONE);
        return deleted.length;
      },
      scan: async (cursor, limit): Promise<ScanPage> => {
        check();
        const ids = [...this.#rows.keys()].sort();
        const start = cursor === undefined ? 0 : ids.findIndex((id) => id > cursor);
        const page = start < 0 ? [] : ids.slice(start, start + Math.max(1, Math.floor(limit)));
        const last = page[page.length - 1];
        return {
          records: page.map((id) => this.#record(id) as VectorRecord),
          next: last !== undefined && last !== ids[ids.length - 1] ? last : undefined,
        };
      },
      count: async () => {
        check();
        return this.#rows.size;
      },
      ping: async () => check(),
      close: async () => {
        closed = true;
      },
    };
  }

  #record(id: string): VectorRecord | undefined {
    const row = this.#rows.get(id);
    return row === undefined
      ? undefined
      : { id, vector: [...row.vector], document: row.document, metadata: { ...row.metadata } };
  }

  #feed(own: OwnListeners): ChangeFeed {
    return {
      head: async () => {
        this.#check();
        return this.#head;
      },
      changesSince: async (after, limit): Promise<StoreChange[]> => {
        this.#check();
        return this.#changes
          .filter((change) => change.seq > after)
          .slice(0, Math.max(1, Math.floor(limit)))
          .map(({ seq, id }) => ({ seq, id, record: this.#record(id) }));
      },
      stamp: async (seq) => {
        this.#check();
        const change = this.#changes.find((c) => c.seq === seq);
        return change === undefined ? undefined : `${this.#epoch}:${seq}:${change.id}`;
      },
      listen: async (onCommit, onConnection) => {
        this.#check();
        const listener = { onCommit, onConnection };
        this.#listeners.add(listener);
        own.add(onCommit);
        return async () => {
          this.#listeners.delete(listener);
          own.delete(onCommit);
        };
      },
    };
  }

  #locks(): ClusterLocks {
    return {
      runAll: (keys, task) => this.#lock.runAll(keys, () => task({ head: this.#head })),
      claimTurn: async (name, intervalMs) => {
        this.#check();
        const now = this.#nowMs();
        const last = this.#turns.get(name);
        if (last !== undefined && now - last < intervalMs) return false;
        this.#turns.set(name, now);
        return true;
      },
    };
  }
}

const NONE: ReadonlySet<string> = new Set();

/** Whether `metadata` has every key of `match` with the same value (jsonb's `@>` on flat maps). */
function contains(metadata: Metadata, match: Metadata): boolean {
  return Object.entries(match).every(([key, value]) => metadata[key] === value);
}
