import type { Metadata, VectorRecord } from "../../core/ports/vector-store.js";
import { idsOf, mergeWrites, type StoreWrite } from "../../core/storage/merge-writes.js";

/** One metadata update, as {@link WriteSink.update} receives it. */
export interface MetadataUpdate {
  readonly id: string;
  readonly metadata: Metadata;
}

/**
 * The backend {@link WriteBatcher} writes to. Each call gets unique ids, at most `maxBatch` of
 * them, and must resolve only once the write is durable.
 */
export interface WriteSink {
  /** Inserts or replaces records (metadata keys merged into an existing id's). */
  upsert(records: readonly VectorRecord[]): Promise<void>;
  /** Merges the keys into existing records; unknown ids are ignored. */
  update(updates: readonly MetadataUpdate[]): Promise<void>;
  /** Deletes the ids; resolves with those of them that existed. */
  delete(ids: readonly string[]): Promise<readonly string[]>;
}

/** Options of {@link WriteBatcher}. */
export interface WriteBatcherOptions {
  /** Most ids in one sink call. Default 5461 (Chroma's `max_batch_size`). */
  readonly maxBatch?: number;
}

interface Pending<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}
type Operation =
  | {
      readonly kind: "upsert";
      readonly records: readonly VectorRecord[];
      readonly done: Pending<void>;
    }
  | {
      readonly kind: "update";
      readonly updates: readonly MetadataUpdate[];
      readonly done: Pending<void>;
    }
  | { readonly kind: "delete"; readonly ids: readonly string[]; readonly done: Pending<number> };

/**
 * Group commit for a store whose writes are expensive per call and serialised by the backend
 * (Chroma commits every write call as its own SQLite transactions: ~10-40 ms each, almost
 * independent of its size, and concurrent writers contend). At most one sink call is in flight;
 * operations queued meanwhile are merged into as few calls as possible by `mergeWrites`, with the
 * effect of applying them one by one: consecutive operations of the same kind become one call (an
 * id upserted twice gets the last vector and document and both metadata, later keys winning;
 * updates of an id merge in order), and operations of different kinds keep their order. A caller's promise settles with the sink
 * call that holds its operation, so an acknowledged write is as durable as the sink makes it, and
 * a failed call that held several callers' operations is retried once per operation, so one
 * caller's bad record (a value the backend refuses) fails only that caller.
 *
 * @example
 * const writes = new WriteBatcher({ upsert: …, update: …, delete: … });
 * await Promise.all(records.map((r) => writes.upsert([r]))); // one sink upsert, not N
 * const removed = await writes.delete(["a", "b"]);
 */
export class WriteBatcher {
  readonly #sink: WriteSink;
  readonly #maxBatch: number;
  readonly #queue: Operation[] = [];
  #running = false;
  #idle: (() => void)[] = [];

  constructor(sink: WriteSink, options: WriteBatcherOptions = {}) {
    this.#sink = sink;
    this.#maxBatch = options.maxBatch ?? 5461;
    if (!Number.isInteger(this.#maxBatch) || this.#maxBatch < 1) {
      throw new Error(`WriteBatcher: maxBatch must be a positive integer, got ${this.#maxBatch}`);
    }
  }

  /** Inserts or replaces records; an id named twice is upserted as twice in a row. */
  upsert(records: readonly VectorRecord[]): Promise<void> {
    const [merged] = mergeWrites([{ op: "upsert", records }]);
    const unique = merged?.op === "upsert" ? merged.records : [];
    return this.#all(
      chunks(unique, this.#maxBatch).map((part) =>
        this.#enqueue<void>((done) => ({ kind: "upsert", records: part, done })),
      ),
    ).then(() => undefined);
  }

  /** Merges metadata keys into existing records; an update without keys is a no-op. */
  updateMetadata(updates: readonly MetadataUpdate[]): Promise<void> {
    const [write] = mergeWrites([{ op: "update", updates }]);
    const merged = write?.op === "update" ? write.updates : [];
    return this.#all(
      chunks(merged, this.#maxBatch).map((part) =>
        this.#enqueue<void>((done) => ({ kind: "update", updates: part, done })),
      ),
    ).then(() => undefined);
  }

  /** Deletes records by id; resolves with how many of them existed. */
  delete(ids: readonly string[]): Promise<number> {
    return this.#all(
      chunks([...new Set(ids)], this.#maxBatch).map((part) =>
        this.#enqueue<number>((done) => ({ kind: "delete", ids: part, done })),
      ),
    ).then((counts) => counts.reduce((sum, n) => sum + n, 0));
  }

  /** Resolves once every queued operation has settled (never rejects). */
  idle(): Promise<void> {
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Waits for every part, so no part's rejection goes unhandled, then reports the first failure. */
  async #all<T>(parts: Promise<T>[]): Promise<T[]> {
    const settled = await Promise.allSettled(parts);
    const failed = settled.find((s) => s.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
  }

  #enqueue<T>(make: (done: Pending<T>) => Operation): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push(make({ resolve, reject }));
      if (!this.#running) {
        this.#running = true;
        // Deferred to the end of this event-loop turn, so writes issued together share a call.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    for (let batch = this.#take(); batch.length > 0; batch = this.#take()) {
      await this.#flush(batch);
    }
    this.#running = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** The leading run of same-kind operations that fits in one sink call. */
  #take(): Operation[] {
    const first = this.#queue[0];
    if (first === undefined) return [];
    const ids = new Set<string>();
    let taken = 0;
    for (const op of this.#queue) {
      if (op.kind !== first.kind) break;
      const opIds = idsOf(toWrite(op));
      const added = opIds.filter((id) => !ids.has(id)).length;
      if (taken > 0 && ids.size + added > this.#maxBatch) break;
      for (const id of opIds) ids.add(id);
      taken += 1;
    }
    return this.#queue.splice(0, taken);
  }

  async #flush(batch: Operation[]): Promise<void> {
    try {
      await this.#write(batch);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.done.reject(error);
        return;
      }
      // One caller's record may be what the backend refused: retry each caller on its own, so
      // the others' writes still land (in order, as they were queued).
      for (const op of batch) {
        try {
          await this.#write([op]);
        } catch (own) {
          op.done.reject(own);
        }
      }
    }
  }

  /** One sink call for a run of same-kind operations; settles them on success, throws on failure. */
  async #write(batch: Operation[]): Promise<void> {
    const [write] = mergeWrites(batch.map(toWrite));
    if (write?.op === "upsert") {
      await this.#sink.upsert(write.records);
    } else if (write?.op === "update") {
      await this.#sink.update(write.updates);
    } else if (write?.op === "delete") {
      // As if run one after another: an id counts for the first caller that deletes it.
      const existed = new Set(await this.#sink.delete(write.ids));
      for (const op of batch) {
        if (op.kind !== "delete") continue;
        const mine = op.ids.filter((id) => existed.delete(id));
        op.done.resolve(mine.length);
      }
      return;
    }
    for (const op of batch) {
      if (op.kind === "delete") op.done.resolve(0);
      else op.done.resolve();
    }
  }
}

/** The write an operation asks for, as `mergeWrites` takes it. */
function toWrite(op: Operation): StoreWrite {
  if (op.kind === "upsert") return { op: "upsert", records: op.records };
  if (op.kind === "update") return { op: "update", updates: op.updates };
  return { op: "delete", ids: op.ids };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
