import type { VectorRecord } from "../../ports/vector-store.js";
import type { Memory, MemoryScope, MemoryStats, MemoryType } from "../model/types.js";
import type { EngineImage } from "./engine-image.js";
import type { MemoryCounts } from "./memory-counts.js";
import type { MemoryFilter } from "./memory-filter.js";

/** What makes two memories duplicates: normalised content (and its hash), type, scope, project. */
export interface DuplicateKey {
  readonly hash: string;
  readonly content: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly project: string;
}

/** A ranked query over the live memories. */
export interface EngineQuery {
  readonly text: string;
  readonly vector: readonly number[];
  readonly topK: number;
  readonly filter: MemoryFilter;
  /** Liveness is judged at this instant. */
  readonly nowMs: number;
}

/** One ranked memory. */
export interface EngineHit {
  readonly memory: Memory;
  /** The index's relevance in [0, 1] (see `RetrievalHit.relevance`). */
  readonly relevance: number;
  /** Cosine similarity of the memory and query vectors. */
  readonly similarity: number;
  /** The index's lexical evidence in [0, 1], when it has one (see `RetrievalHit.lexical`). */
  readonly lexical?: number;
  /** The index's semantic evidence in [0, 1], when it has one (see `RetrievalHit.semantic`). */
  readonly semantic?: number;
  /** Evidence its store neighbours lent it, when any (see `RetrievalHit.neighbour`). */
  readonly neighbour?: number;
}

/** A value now or later: the engine answers at once, the replica read model asks the store. */
export type Awaitable<T> = T | Promise<T>;

/**
 * What {@link MemoryService} reads memories through, and tells about the writes the store has
 * acknowledged: `MemoryEngine`, every memory held in process with exact hybrid ranking (loaded at
 * startup; a replica keeps it current from the store's change feed), possibly wrapped
 * (`LocallyWrittenEngine` notes this process's writes for the change follower).
 *
 * @example
 * const hits = await reads.query({ text, vector, topK: 10, filter: { project }, nowMs });
 */
export interface MemoryReadModel {
  /** Whether `MemoryService.init()` loads every stored record into it (`load`). */
  readonly loadsFromStore: boolean;
  /** Memories held in process (0 for a model that holds none). */
  readonly size: number;
  /** Adds a stored record at startup (only called when {@link loadsFromStore}). */
  load(record: VectorRecord): void;
  /** Called once the startup load is done: work the load deferred happens now (optional). */
  settle?(): void;
  /** A memory the store has just acknowledged. */
  add(memory: Memory, hash: string, vector: readonly number[]): void;
  /** A memory the store has just deleted; false when it was not held. */
  remove(id: string): boolean;
  /** New fields (not the content) of a memory the store has acknowledged; false when not held. */
  update(memory: Memory): boolean;
  /** The memory if it exists and is live at `nowMs`. */
  get(id: string, nowMs: number): Awaitable<Memory | undefined>;
  /** The memory as last known here, live or not (for writing its access data). */
  peek(id: string): Memory | undefined;
  /** Counts one access of each live memory among `ids`; returns the ids counted. */
  recordAccess(ids: readonly string[], nowMs: number): Awaitable<string[]>;
  /** The live memory that a remember of `key` duplicates (oldest first), or undefined. */
  findDuplicate(key: DuplicateKey, nowMs: number): Awaitable<Memory | undefined>;
  /** The `topK` most relevant live memories that pass the filter. */
  query(query: EngineQuery): Awaitable<EngineHit[]>;
  /**
   * Per id of `ids`, the live memories that pass `filter` written up to `distance` before and
   * after it in its store order (its project and scope, within the index's neighbour window),
   * earliest first: the turns around a recalled one. Empty for an id not held. Optional: a model
   * without it has no neighbours (recall's `context_neighbours` then adds nothing).
   */
  storeNeighbours?(
    ids: readonly string[],
    distance: number,
    filter: MemoryFilter,
    nowMs: number,
  ): Awaitable<Memory[][]>;
  /**
   * Every memory live at `nowMs`, in no particular order (list, delete by filter, export). The
   * engine walks what it holds; the replica model reads the whole store, page by page.
   */
  live(nowMs: number): Awaitable<Iterable<Memory>>;
  /**
   * The memories live at `nowMs` by (`created_at`, id), newest or oldest first, strictly after
   * `after` (a listing's cursor position) when given.
   */
  liveInOrder(
    nowMs: number,
    order: "newest" | "oldest",
    after?: { readonly createdMs: number; readonly id: string },
  ): Awaitable<Iterable<Memory>>;
  /** Live memories at `nowMs` by type and scope. */
  stats(nowMs: number): Awaitable<MemoryStats>;
  /** Live memories at `nowMs` that `accept` admits (all when omitted), by type, scope, project, tag. */
  counts(nowMs: number, accept?: (memory: Memory) => boolean): Awaitable<MemoryCounts>;
  /**
   * Every memory held, as the store holds it (content, metadata, vector): what the engine
   * snapshot saves. Nothing for a model that holds none.
   */
  records(): Iterable<VectorRecord>;
  /** What it holds as data, for a replica's snapshot (optional; see `engine-image.ts`). */
  image?(): EngineImage | undefined;
  /** Holds an image's memories (empty model only); false when it cannot take it (optional). */
  restore?(image: EngineImage): boolean;
  /** Ids of memories expired at `nowMs` (what the sweep deletes). */
  expired(nowMs: number): Awaitable<string[]>;
}
