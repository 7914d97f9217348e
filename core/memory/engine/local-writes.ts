import type { VectorRecord } from "../../ports/vector-store.js";
import type { Memory, MemoryStats } from "../model/types.js";
import type { OrderPosition } from "./created-order.js";
import type { MemoryCounts } from "./memory-counts.js";
import type {
  Awaitable,
  DuplicateKey,
  EngineHit,
  EngineQuery,
  MemoryReadModel,
} from "./read-model.js";

/**
 * A logical clock of the writes this process applied to its engine, per memory id: a replica's
 * change follower reads it before fetching changes from the shared store, and skips a fetched
 * state of a memory written here since (the fetched state may predate the local write; the
 * change that carries the local write comes in a later round).
 *
 * @example
 * const before = writes.now;
 * const changes = await feed.changesSince(applied, 1000);
 * for (const c of changes) if (!writes.since(c.id, before)) apply(c);
 */
export class LocalWriteClock {
  #now = 0;
  readonly #last = new Map<string, number>();

  /** The clock's current reading. */
  get now(): number {
    return this.#now;
  }

  /** Notes a local write of `id`. */
  mark(id: string): void {
    this.#now += 1;
    this.#last.set(id, this.#now);
  }

  /** True when `id` was written here after the clock read `reading`. */
  since(id: string, reading: number): boolean {
    return (this.#last.get(id) ?? 0) > reading;
  }

  /** Forgets writes at or before `reading` (no later round asks about them). */
  prune(reading: number): void {
    for (const [id, at] of this.#last) if (at <= reading) this.#last.delete(id);
  }

  /** Ids with a write not pruned yet (for tests). */
  get size(): number {
    return this.#last.size;
  }
}

/**
 * The read model a replica's use cases see: the engine, with every write they apply to it noted
 * on a {@link LocalWriteClock}. The change follower applies the shared store's changes to the
 * inner engine directly, so its own applies are not noted.
 *
 * @example
 * const clock = new LocalWriteClock();
 * const reads = new LocallyWrittenEngine(engine, clock);
 */
export class LocallyWrittenEngine implements MemoryReadModel {
  readonly #inner: MemoryReadModel;
  readonly #clock: LocalWriteClock;

  constructor(inner: MemoryReadModel, clock: LocalWriteClock) {
    this.#inner = inner;
    this.#clock = clock;
  }

  get loadsFromStore(): boolean {
    return this.#inner.loadsFromStore;
  }

  get size(): number {
    return this.#inner.size;
  }

  load(record: VectorRecord): void {
    this.#inner.load(record);
  }

  settle(): void {
    this.#inner.settle?.();
  }

  add(memory: Memory, hash: string, vector: readonly number[]): void {
    this.#clock.mark(memory.id);
    this.#inner.add(memory, hash, vector);
  }

  remove(id: string): boolean {
    this.#clock.mark(id);
    return this.#inner.remove(id);
  }

  update(memory: Memory): boolean {
    this.#clock.mark(memory.id);
    return this.#inner.update(memory);
  }

  get(id: string, nowMs: number): Awaitable<Memory | undefined> {
    return this.#inner.get(id, nowMs);
  }

  peek(id: string): Memory | undefined {
    return this.#inner.peek(id);
  }

  recordAccess(ids: readonly string[], nowMs: number): Awaitable<string[]> {
    return this.#inner.recordAccess(ids, nowMs);
  }

  findDuplicate(key: DuplicateKey, nowMs: number): Awaitable<Memory | undefined> {
    return this.#inner.findDuplicate(key, nowMs);
  }

  query(query: EngineQuery): Awaitable<EngineHit[]> {
    return this.#inner.query(query);
  }

  live(nowMs: number): Awaitable<Iterable<Memory>> {
    return this.#inner.live(nowMs);
  }

  liveInOrder(
    nowMs: number,
    order: "newest" | "oldest",
    after?: OrderPosition,
  ): Awaitable<Iterable<Memory>> {
    return this.#inner.liveInOrder(nowMs, order, after);
  }

  stats(nowMs: number): Awaitable<MemoryStats> {
    return this.#inner.stats(nowMs);
  }

  counts(nowMs: number, accept?: (memory: Memory) => boolean): Awaitable<MemoryCounts> {
    return this.#inner.counts(nowMs, accept);
  }

  records(): Iterable<VectorRecord> {
    return this.#inner.records();
  }

  expired(nowMs: number): Awaitable<string[]> {
    return this.#inner.expired(nowMs);
  }
}
