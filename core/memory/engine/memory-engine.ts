import type { VectorRecord } from "../../ports/vector-store.js";
import { normaliseContent } from "../model/content-key.js";
import { isLive, type ExpiryOptions } from "../model/expiry.js";
import { decodeMemory, encodeMemoryMetadata } from "../model/memory-metadata.js";
import { withAccess } from "../model/metadata-updates.js";
import type { DuplicateKey, EngineHit, EngineQuery, MemoryReadModel } from "./read-model.js";
import type { RetrievalIndex } from "../../retrieval/retrieval-index.js";
import type { Memory, MemoryStats } from "../model/types.js";
import { CreatedOrder, type OrderPosition } from "./created-order.js";
import { engineImage, restoreEngine, type EngineImage } from "./engine-image.js";
import { HashLookup } from "./hash-lookup.js";
import { HeldColumns } from "./held-columns.js";
import { HeldMemory, Interner } from "./held-memory.js";
import {
  groupsOf,
  inGroupOrder,
  PERMANENT_GROUP,
  projectGroup,
  storeOrderOf,
} from "./index-groups.js";
import { LivenessCache } from "./liveness-cache.js";
import { CountTally, type MemoryCounts } from "./memory-counts.js";
import { compileMemoryFilter, type MemoryFilter } from "./memory-filter.js";

/**
 * The in-process query engine over the memories of one store: every stored memory held compactly
 * in a Map ({@link HeldMemory}: numbers and shared strings, a `Memory` built per answer), a
 * content-hash map for duplicate lookup, and a {@link RetrievalIndex} for ranking. Pure and
 * synchronous: the service loads it from the store at startup and applies each write to it after
 * the store has acknowledged the write, so it always holds exactly what the store holds (when this
 * process is the store's only writer). Access data (`access_count`, `last_accessed`) changes here
 * first and reaches the store behind the answer.
 *
 * Expired memories stay until the sweep deletes them, but no read returns them: every read takes
 * the instant to judge liveness at.
 *
 * Long because: one class keeps the Map, the hash map, the listing order, the liveness cache and
 * the index in step on every write; split, each part would need the others' invariants.
 *
 * @example
 * const engine = new MemoryEngine(new CosineRetrievalIndex(), service.options);
 * engine.add(memory, hash, vector);
 * engine.query({ text: "deploy", vector, topK: 10, filter: { project: "billing" }, nowMs });
 */
export class MemoryEngine implements MemoryReadModel {
  /** The service loads every stored memory into the engine at startup. */
  readonly loadsFromStore = true;
  readonly #index: RetrievalIndex;
  readonly #options: ExpiryOptions;
  readonly #entries = new Map<string, HeldMemory>();
  /** By content hash, for duplicate lookup (built at the first lookup after a restore). */
  readonly #byHash = new HashLookup(this.#entries);
  readonly #interner = new Interner();
  /** The held memories' changeable numbers (replaced at a restore). */
  #columns = new HeldColumns();
  /** The entries by creation, for listing pages without a pass over every memory. */
  readonly #order = new CreatedOrder<HeldMemory>();
  /** The stats and "all live" answers, kept between changes. */
  readonly #liveness = new LivenessCache(this.#entries);
  /** The next memory's insertion number (its `tie` in the store order). */
  #nextTie = 0;

  constructor(index: RetrievalIndex, options: ExpiryOptions) {
    this.#index = index;
    this.#options = options;
  }

  /** Memories held, expired ones not swept yet included. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Adds a stored record (the startup load). Throws a plain Error naming the record and the key
   * when it does not follow the memory layout; the caller skips it with a warning.
   */
  load(record: VectorRecord): void {
    const memory = decodeMemory(record);
    const hash = record.metadata["content_hash"];
    this.add(memory, typeof hash === "string" ? hash : "", record.vector);
  }

  /** Does the index's deferred upkeep now (after the startup load), not in the first query. */
  settle(): void {
    this.#index.settle?.();
  }

  /** Every held memory (expired ones not swept yet included) as the store holds it. */
  *records(): Generator<VectorRecord> {
    // In store order (a load numbers them in the order read, so it keeps their neighbours), then
    // group by group as the index keeps its rows, so a load from these records needs no reordering.
    for (const held of inGroupOrder(inStoreOrder(this.#entries.values()))) {
      const vector = this.#index.vectorOf(held.id);
      if (vector === undefined) continue;
      const metadata = encodeMemoryMetadata(held.toMemory(), held.hash);
      yield { id: held.id, vector, document: held.content, metadata };
    }
  }

  /** What it holds, as data (see `engine-image.ts`); `undefined` when its index keeps none. */
  image(): EngineImage | undefined {
    return engineImage(this.#index, this.#entries, this.#order, this.#columns);
  }

  /** Holds an image's memories (the engine must be empty); false when the index refuses it. */
  restore(image: EngineImage): boolean {
    if (this.#entries.size > 0) throw new Error("MemoryEngine: restore needs an empty engine");
    this.#liveness.changed();
    this.#byHash.defer();
    const columns = restoreEngine(image, this.#index, this.#interner, (held) => {
      this.#nextTie = Math.max(this.#nextTie, held.tie + 1);
      this.#liveness.added(held.expiresAtMs);
      this.#entries.set(held.id, held);
      this.#order.add(held);
    });
    if (columns === undefined) return false;
    this.#columns = columns;
    return true;
  }

  /**
   * Adds (or replaces) a memory the store has just acknowledged. A new memory takes the next
   * insertion number; a replaced one (new content) keeps its own, so it keeps its place among
   * its store neighbours.
   */
  add(memory: Memory, hash: string, vector: readonly number[]): void {
    const known = this.#entries.get(memory.id);
    if (known !== undefined) this.#forget(known, false);
    this.#liveness.changed();
    const held = HeldMemory.of(memory, hash, this.#interner, this.#columns);
    held.tie = known?.tie ?? this.#nextTie++;
    this.#liveness.added(held.expiresAtMs);
    this.#entries.set(held.id, held);
    this.#order.add(held);
    this.#byHash.add(held);
    this.#index.add({
      id: held.id,
      text: held.content,
      vector,
      groups: groupsOf(held),
      order: storeOrderOf(held),
    });
  }

  /** Forgets a memory the store has deleted; false when it was not held. */
  remove(id: string): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#forget(entry, true);
    return true;
  }

  /** Drops a held memory (and from the index too when `unindex`; else an add replaces it). */
  #forget(entry: HeldMemory, unindex: boolean): void {
    this.#liveness.changed();
    this.#entries.delete(entry.id);
    this.#order.remove(entry);
    this.#byHash.remove(entry);
    entry.release();
    if (unindex) this.#index.remove(entry.id);
  }

  /** The memory if it is held and live at `nowMs`. */
  get(id: string, nowMs: number): Memory | undefined {
    const entry = this.#entries.get(id);
    return entry !== undefined && isLive(entry.expiresAtMs, nowMs) ? entry.toMemory() : undefined;
  }

  /**
   * Replaces the fields of a held memory other than its content (a write the store has
   * acknowledged, e.g. a duplicate merge); false when it is not held.
   */
  update(memory: Memory): boolean {
    let entry = this.#entries.get(memory.id);
    if (entry === undefined) return false;
    this.#liveness.changed();
    const { project, scope, createdMs } = entry;
    if (entry.createdMs !== Date.parse(memory.created_at)) {
      // Its place in the listing order moves: a new entry there, the old one gone.
      this.#order.remove(entry);
      this.#byHash.remove(entry);
      entry.release();
      const { content, tie } = entry;
      entry = HeldMemory.of({ ...memory, content }, entry.hash, this.#interner, this.#columns);
      entry.tie = tie;
      this.#entries.set(memory.id, entry);
      this.#order.add(entry);
      this.#byHash.add(entry);
    } else {
      entry.assign(memory, this.#interner);
    }
    if (project !== memory.project || scope !== memory.scope || createdMs !== entry.createdMs) {
      // Its groups or store-order place changed: index it again (same text and vector).
      const vector = this.#index.vectorOf(memory.id);
      if (vector !== undefined) {
        const groups = groupsOf(entry);
        const order = storeOrderOf(entry);
        this.#index.add({ id: memory.id, text: entry.content, vector, groups, order });
      }
    }
    this.#liveness.expiriesMoved();
    return true;
  }

  /**
   * Counts one access of each live memory among `ids` at `nowMs` (at once: the store learns it
   * behind the answer) and returns the ids it counted.
   */
  recordAccess(ids: readonly string[], nowMs: number): string[] {
    const counted: string[] = [];
    for (const id of new Set(ids)) {
      const entry = this.#entries.get(id);
      if (entry === undefined || !isLive(entry.expiresAtMs, nowMs)) continue;
      entry.assign(withAccess(entry.toMemory(), nowMs, this.#options), this.#interner);
      counted.push(id);
    }
    return counted;
  }

  /**
   * The live memory that a `remember` of `key` duplicates, or `undefined`: same normalised
   * content (compared, so a hash collision cannot merge), type, scope and project. Oldest first
   * when several qualify.
   */
  findDuplicate(key: DuplicateKey, nowMs: number): Memory | undefined {
    const held = this.#byHash.find(key.hash);
    if (held.length === 0) return undefined;
    const normalised = normaliseContent(key.content);
    let found: Memory | undefined;
    for (const { id } of held) {
      const memory = this.get(id, nowMs);
      if (
        memory === undefined ||
        memory.type !== key.type ||
        memory.scope !== key.scope ||
        memory.project !== key.project ||
        normaliseContent(memory.content) !== normalised
      ) {
        continue;
      }
      if (found === undefined || olderFirst(memory, found) < 0) found = memory;
    }
    return found;
  }

  /**
   * The `topK` most relevant live memories that pass the filter, most relevant first. A project
   * query ranks only that project's memories and the permanent ones (index groups, so the other
   * projects cost nothing); when nothing held is expired and the filter has no clause
   * beyond the project, the index ranks without a per-memory check.
   */
  query(query: EngineQuery): EngineHit[] {
    const { filter, nowMs } = query;
    const project = filter.project ?? "";
    const passes = compileMemoryFilter(filter);
    const entries = this.#entries;
    const onlyProject =
      filter.types === undefined && filter.scopes === undefined && (filter.tags ?? []).length === 0;
    const unchecked = onlyProject && this.#liveness.allLive(nowMs);
    const hits = this.#index.query({
      text: query.text,
      vector: query.vector,
      topK: query.topK,
      ...(project === "" ? {} : { groups: [projectGroup(project), PERMANENT_GROUP] }),
      ...(unchecked
        ? {}
        : {
            accept: (id: string) => {
              const entry = entries.get(id);
              return entry !== undefined && isLive(entry.expiresAtMs, nowMs) && passes(entry);
            },
          }),
    });
    return hits.flatMap((hit) => {
      const memory = entries.get(hit.id)?.toMemory();
      return memory === undefined
        ? []
        : [
            {
              memory,
              relevance: hit.relevance,
              similarity: hit.similarity,
              ...(hit.lexical === undefined ? {} : { lexical: hit.lexical }),
              ...(hit.semantic === undefined ? {} : { semantic: hit.semantic }),
              ...(hit.neighbour === undefined ? {} : { neighbour: hit.neighbour }),
            },
          ];
    });
  }

  /**
   * Per id of `ids`, the live memories that pass `filter` written up to `distance` before and
   * after it in its store order (the index's order groups: project and scope, within its
   * neighbour window), earliest first; empty for an id not held or an index without an order.
   */
  storeNeighbours(
    ids: readonly string[],
    distance: number,
    filter: MemoryFilter,
    nowMs: number,
  ): Memory[][] {
    const passes = compileMemoryFilter(filter);
    return ids.map((id) =>
      (this.#index.storeNeighbours?.(id, distance) ?? []).flatMap((other) => {
        const entry = this.#entries.get(other);
        return entry !== undefined && isLive(entry.expiresAtMs, nowMs) && passes(entry)
          ? [entry.toMemory()]
          : [];
      }),
    );
  }

  /**
   * Live memories at `nowMs`: the total and one count per type and per scope, zeros included
   * (remembered between changes: see {@link LivenessCache.stats}).
   */
  stats(nowMs: number): MemoryStats {
    return this.#liveness.stats(nowMs);
  }

  /**
   * Live memories at `nowMs` that `accept` admits (all when omitted), counted by type, scope,
   * project and tag. Without `accept` the answer is remembered between changes like
   * {@link stats}; with it, one pass over the held memories in process (never the store).
   */
  counts(nowMs: number, accept?: (memory: Memory) => boolean): MemoryCounts {
    if (accept === undefined) return this.#liveness.counts(nowMs);
    const tally = new CountTally();
    for (const entry of this.#entries.values()) {
      if (!isLive(entry.expiresAtMs, nowMs)) continue;
      const memory = entry.toMemory();
      if (accept(memory)) tally.add(memory);
    }
    return tally.counts();
  }

  /** Ids of the memories expired at `nowMs` (what the sweep deletes). */
  expired(nowMs: number): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.#entries) if (!isLive(entry.expiresAtMs, nowMs)) ids.push(id);
    return ids;
  }

  /**
   * Every memory live at `nowMs`, in no particular order (listing, deleting by filter, export
   * read through this; they choose their own order).
   */
  *live(nowMs: number): IterableIterator<Memory> {
    for (const entry of this.#entries.values()) {
      if (isLive(entry.expiresAtMs, nowMs)) yield entry.toMemory();
    }
  }

  /**
   * The memories live at `nowMs` by `created_at` then id, newest or oldest first, strictly after
   * `after` when given: a listing page reads only what it returns (plus what its filter skips).
   */
  *liveInOrder(
    nowMs: number,
    order: "newest" | "oldest",
    after?: OrderPosition,
  ): IterableIterator<Memory> {
    for (const entry of this.#order.walk(order, after)) {
      if (isLive(entry.expiresAtMs, nowMs)) yield entry.toMemory();
    }
  }

  /** The memory as held, live or not (for writing its current access data to the store). */
  peek(id: string): Memory | undefined {
    return this.#entries.get(id)?.toMemory();
  }
}

/** Held memories by creation instant, then insertion number (as they came, when already so). */
function inStoreOrder(entries: Iterable<HeldMemory>): HeldMemory[] {
  const all = [...entries];
  const before = (a: HeldMemory, b: HeldMemory) => a.createdMs - b.createdMs || a.tie - b.tie;
  const sorted = all.every((held, i) => i === 0 || before(all[i - 1] as HeldMemory, held) <= 0);
  return sorted ? all : all.sort(before);
}

function olderFirst(a: Memory, b: Memory): number {
  return a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}
