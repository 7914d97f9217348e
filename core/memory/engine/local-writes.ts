import type { EngineImage } from "./engine-image.js";
import type { VectorRecord } from "../../ports/vector-store.js";
import type { Memory, MemoryStats } from "../model/types.js";
import type { OrderPosition } from "./created-order.js";
import type { MemoryCounts } from "./memory-counts.js";
import type { MemoryFilter } from "./memory-filter.js";
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
 * It also knows which changes the engine holds already, exactly: the store tells it the records
 * this process's commits created ({@link LocalWriteClock.committed}, before the write resolves);
 * when the use case then adds such a record to an engine that did not hold the id
 * ({@link LocalWriteClock.added}), the engine holds exactly what that change stored, and the
 * follower need not read nor apply it ({@link LocalWriteClock.holds}). Any other local write of
 * the id forgets it (the feed then brings the id's state as usual).
 *
 * @example
 * const before = writes.now;
 * const changes = await feed.changesSince(applied, 1000);
 * for (const c of changes) if (!writes.holds(c.seq) && !writes.since(c.id, before)) apply(c);
 */
export class LocalWriteClock {
  #now = 0;
  readonly #last = new Map<string, number>();
  /** Records this process's commits created, by id: the seq, until the engine adds them. */
  readonly #created = new Map<string, number>();
  /** Changes the engine holds exactly: seq → id, and id → seq. */
  readonly #heldIds = new Map<number, string>();
  readonly #heldSeqs = new Map<string, number>();

  /** The clock's current reading. */
  get now(): number {
    return this.#now;
  }

  /** Notes a local write of `id` (not the add of a record created here: see {@link added}). */
  mark(id: string): void {
    this.#now += 1;
    this.#last.set(id, this.#now);
    this.#created.delete(id);
    this.#forgetHeld(id);
  }

  /**
   * Notes a local add of `id` to the engine; `fresh`: the engine did not hold it before. When a
   * commit of this process created the record and the engine did not hold it, the engine now
   * holds exactly what that change stored (the use case adds the record it wrote).
   */
  added(id: string, fresh: boolean): void {
    const seq = this.#created.get(id);
    this.mark(id);
    if (seq === undefined || !fresh) return;
    this.#heldIds.set(seq, id);
    this.#heldSeqs.set(id, seq);
  }

  /** Notes changes this process's store committed that created their records. */
  committed(created: readonly { readonly seq: number; readonly id: string }[]): void {
    for (const { seq, id } of created) this.#created.set(id, seq);
  }

  /** True when the engine holds exactly what change `seq` stored (see the class comment). */
  holds(seq: number): boolean {
    return this.#heldIds.has(seq);
  }

  /** True when `id` was written here after the clock read `reading`. */
  since(id: string, reading: number): boolean {
    return (this.#last.get(id) ?? 0) > reading;
  }

  /** Forgets writes at or before `reading` (no later round asks about them). */
  prune(reading: number): void {
    for (const [id, at] of this.#last) if (at <= reading) this.#last.delete(id);
  }

  /**
   * Forgets what it knows of changes up to `seq` (the follower is past them) or, without `seq`,
   * of every change (the follower reloaded the store: its seqs may be reused).
   */
  settle(seq = Number.POSITIVE_INFINITY): void {
    for (const [id, at] of this.#created) if (at <= seq) this.#created.delete(id);
    for (const [at, id] of this.#heldIds) {
      if (at > seq) continue;
      this.#heldIds.delete(at);
      this.#heldSeqs.delete(id);
    }
  }

  /** Ids with a write not pruned yet (for tests). */
  get size(): number {
    return this.#last.size;
  }

  #forgetHeld(id: string): void {
    const seq = this.#heldSeqs.get(id);
    if (seq === undefined) return;
    this.#heldSeqs.delete(id);
    this.#heldIds.delete(seq);
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
    this.#clock.added(memory.id, this.#inner.peek(memory.id) === undefined);
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

  storeNeighbours(
    ids: readonly string[],
    distance: number,
    filter: MemoryFilter,
    nowMs: number,
  ): Awaitable<Memory[][]> {
    return this.#inner.storeNeighbours?.(ids, distance, filter, nowMs) ?? ids.map(() => []);
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

  image(): EngineImage | undefined {
    return this.#inner.image?.();
  }

  restore(image: EngineImage): boolean {
    return this.#inner.restore?.(image) ?? false;
  }

  expired(nowMs: number): Awaitable<string[]> {
    return this.#inner.expired(nowMs);
  }
}
