// Long because: the facade of every use case, with both lifecycles (its own `init`, and the
// load a TenantSpace does for every tenant at once) and the snapshot it takes part in.
import { AgentServicesError } from "../errors.js";
import type { EngineSnapshots } from "../ports/engine-snapshots.js";
import type { VectorRecord } from "../ports/vector-store.js";
import type { AccessWriteBehind } from "../storage/access-write-behind.js";
import {
  loadEngine,
  saveEngineSnapshot,
  type LoadProgress,
  type LoadSource,
} from "../storage/engine-load.js";
import type { EngineImage } from "./engine/engine-image.js";
import type { ListPage } from "./engine/list-page.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import type { ChangeFollower } from "../storage/change-follower.js";
import type { Replica } from "./replica.js";
import type { MemoryApi } from "./memory-api.js";
import { depsProblems, type MemoryServiceDeps } from "./memory-service-deps.js";
import {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  validateMemoryServiceOptions,
} from "./model/memory-service-options.js";
import type { NdjsonLine } from "./model/ndjson-lines.js";
import { parseMemoryId } from "./model/parse-input.js";
import type { ServiceContext } from "./service-context.js";
import { wireMemoryService } from "./service-wiring.js";
import type {
  DeleteMatchingInput,
  ListInput,
  Memory,
  MemoryServiceOptions,
  MemoryStats,
  StatsInput,
  RecallInput,
  RecallResult,
  RememberBatchInput,
  RememberBatchResult,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
  UpdateInput,
} from "./model/types.js";
import { deleteMatching, type DeleteMatchingResult } from "./use-cases/delete-matching.js";
import { deleteMemory } from "./use-cases/delete-memory.js";
import { exportMemories, type ExportedMemory } from "./use-cases/export-memories.js";
import { getMemory } from "./use-cases/get-memory.js";
import { importMemories, type ImportResult } from "./use-cases/import-memories.js";
import { listMemories } from "./use-cases/list-memories.js";
import { memoryStats } from "./use-cases/memory-stats.js";
import { recall, type RecallOptions } from "./use-cases/recall.js";
import { remember } from "./use-cases/remember.js";
import { rememberBatch } from "./use-cases/remember-batch.js";
import { search } from "./use-cases/search.js";
import { sweepExpired } from "./use-cases/sweep-expired.js";
import { updateMemory, type UpdateResult } from "./use-cases/update-memory.js";
import { WriteGate } from "./write-gate.js";

/**
 * The memory service: remember (single and batch, with duplicate merging), recall (re-ranked and
 * packed into a token budget, counting accesses), search, get, list, update, delete (one, or by
 * filter), export, import, stats and the expiry sweep. Each use case lives in its own file under
 * `use-cases/` as `(context, input) => result`; this class builds what they share (the
 * {@link ServiceContext}), runs the lifecycle (`init`, `saveSnapshot`) and passes every write
 * through its {@link WriteGate}, so a shutdown snapshot holds exactly what the store holds.
 *
 * Reads never touch the store: they run on the {@link MemoryEngine}, which `init()` loads from the
 * store and every acknowledged write updates (store first, engine once acknowledged; recall's
 * access counts are written behind the answer, {@link AccessWriteBehind}). Per-key locks keep
 * "find a duplicate, else insert" atomic per content key, and merges and deletes per id. Owner
 * mode: this service is the store's only writer, the locks are a {@link KeyedLock}. Replica mode
 * (`deps.feed` and `deps.locks`, see `replica.ts`): the engine follows the shared store's change
 * feed and the locks hold across the cluster.
 *
 * @example
 * const service = new MemoryService({ store, embedder, clock: new SystemClock() });
 * await service.init();
 * const { id } = await service.remember({ content: "Deploys run on Fridays", type: "rule" });
 * const { context } = await service.recall({ message: "when do we deploy?" });
 */
export class MemoryService implements MemoryApi {
  /** The options in effect, defaults filled in. */
  readonly options: MemoryServiceOptions;
  /** Every write passes it; `saveSnapshot()` closes it first. */
  readonly #writes = new WriteGate();
  /** The engine the use cases read and write (in replica mode, noting local writes). */
  readonly #engine: MemoryReadModel;
  /** Replica mode: the follower of the shared store's changes, its feed and cluster locks. */
  readonly #replica: Replica | undefined;
  readonly #accesses: AccessWriteBehind;
  /** What every use case works with. */
  readonly #context: ServiceContext;
  readonly #snapshots: EngineSnapshots | undefined;
  #loadedFrom: LoadSource | undefined;

  constructor(deps: MemoryServiceDeps) {
    const missing = depsProblems(deps);
    if (missing.length > 0) throw new AgentServicesError("config_invalid", missing.join("\n"));
    const options: MemoryServiceOptions = { ...DEFAULT_MEMORY_SERVICE_OPTIONS, ...deps.options };
    const problems = validateMemoryServiceOptions(options);
    if (problems.length > 0) throw new AgentServicesError("config_invalid", problems.join("\n"));
    this.options = options;
    this.#snapshots = deps.snapshots;
    const parts = wireMemoryService(
      deps,
      options,
      (message, cause) => this.#warn(message, cause),
      () => deps.clock.now().getTime(),
    );
    this.#engine = parts.engine;
    this.#replica = parts.replica;
    this.#accesses = parts.accesses;
    this.#context = parts.context;
  }

  /**
   * Binds the store to this embedder's vector space (throws `embedder_mismatch` when it holds
   * vectors of another embedder), then loads every stored memory into the engine, page by page,
   * reporting progress after each page. A record that cannot be read is skipped with a warning.
   * Call once before serving: until it resolves, every read and write throws. Resolves with the
   * number of memories loaded.
   */
  async init(onProgress?: (progress: LoadProgress) => void): Promise<number> {
    await this.#context.store.bind({
      embedderId: this.#context.embedder.id,
      dimensions: this.#context.embedder.dimensions,
    });
    // A replica follows the feed from the head read before the load: what is written during the
    // load is applied again afterwards, which converges.
    const head = this.#replica === undefined ? 0 : await this.#replica.feed.head();
    this.#loadedFrom = await loadEngine(
      {
        store: this.#context.store,
        engine: this.#engine,
        snapshots: this.#replica === undefined ? this.#snapshots : undefined,
        skip: (record, error) =>
          this.#warn(`skipped memory record ${record.id}: it cannot be read`, error),
      },
      onProgress,
    );
    await this.#replica?.follower.start(head);
    return this.#engine.size;
  }

  /**
   * Loads records someone else read from the store into the engine, instead of `init()` reading
   * them itself: a `TenantSpace` reads the shared store once and hands each tenant's service its
   * own records. A record that cannot be read is skipped with a warning. Call
   * {@link MemoryService.startLoaded} after the last page.
   *
   * @example
   * service.loadRecords(page); // … every page …
   * await service.startLoaded("store", headBeforeTheScan);
   */
  loadRecords(records: readonly VectorRecord[]): void {
    for (const record of records) {
      try {
        this.#engine.load(record);
      } catch (error) {
        this.#warn(`skipped memory record ${record.id}: it cannot be read`, error);
      }
    }
  }

  /**
   * Ends a load done with {@link MemoryService.loadRecords}: notes where it came from and, in
   * replica mode, follows the feed from `head` (read before the records were). The store must
   * already be bound to this service's embedder.
   */
  async startLoaded(source: LoadSource, head: number): Promise<number> {
    this.#loadedFrom = source;
    await this.#replica?.follower.start(head);
    return this.#engine.size;
  }

  /** The engine as data, for a replica's snapshot (after {@link quiesce}); see `engine-image.ts`. */
  engineImage(): EngineImage | undefined {
    return this.#engine.image?.();
  }

  /**
   * Loads an engine image into the empty engine instead of {@link loadRecords} (then call
   * {@link startLoaded} with the image's seq); false when the engine refuses it.
   */
  restoreImage(image: EngineImage): boolean {
    return this.#engine.restore?.(image) ?? false;
  }

  /** Replica mode (a feed and cluster locks): the engine follows a shared store. */
  get replica(): boolean {
    return this.#replica !== undefined;
  }

  /**
   * At shutdown, after the last write: refuses every new write, lands the pending access updates
   * and returns what the engine holds, for a snapshot of several services (`TenantSpace`);
   * `undefined` when the engine does not mirror the store (an access update failed to land).
   * The records' metadata is what the service writes (no key someone else adds).
   */
  async quiesce(): Promise<Iterable<VectorRecord> | undefined> {
    await this.#writes.close();
    await this.#accesses.flush();
    if (this.#accesses.pending > 0 || !this.#engine.loadsFromStore) return undefined;
    return this.#engine.records();
  }

  /**
   * Replica mode: the follower of the shared store's change feed (`healthy`, `applied`,
   * `catchUp()` for read-your-writes across replicas, `stop()` at shutdown); owner mode: none.
   */
  get follower(): ChangeFollower | undefined {
    return this.#replica?.follower;
  }

  /** Where `init()` loaded the engine from (`undefined` before). */
  get loadedFrom(): LoadSource | undefined {
    return this.#loadedFrom;
  }

  /**
   * At shutdown, after the last write: lands the pending access updates, then saves the engine
   * as a snapshot (when the service has `snapshots`) so the next start can load from it. Resolves
   * with whether a snapshot was saved. It first refuses every new write (`store_unavailable`) and
   * waits for those in flight, so the snapshot holds exactly what the store holds.
   */
  async saveSnapshot(): Promise<boolean> {
    await this.#writes.close();
    await this.#accesses.flush();
    if (this.#accesses.pending > 0) return false;
    return saveEngineSnapshot(
      { store: this.#context.store, engine: this.#engine, snapshots: this.#snapshots },
      this.#context.newId(),
    );
  }

  async remember(input: RememberInput): Promise<RememberResult> {
    this.#assertStarted("remember");
    return this.#writes.run(() => remember(this.#context, input));
  }

  async rememberBatch(input: RememberBatchInput): Promise<RememberBatchResult> {
    this.#assertStarted("rememberBatch");
    return this.#writes.run(() => rememberBatch(this.#context, input));
  }

  /** With `countAccesses: false` the memories returned are not counted as accessed. */
  async recall(input: RecallInput, options: RecallOptions = {}): Promise<RecallResult> {
    this.#assertStarted("recall");
    return recall(this.#context, input, options);
  }

  async search(input: SearchInput): Promise<SearchResult> {
    this.#assertStarted("search");
    return search(this.#context, input);
  }

  async get(id: string): Promise<Memory> {
    this.#assertStarted("get");
    return getMemory(this.#context, id);
  }

  async delete(id: string): Promise<{ deleted: true }> {
    this.#assertStarted("delete");
    // Checked before the gate: a bad id is invalid_input even while shutting down.
    const memoryId = parseMemoryId(id);
    return this.#writes.run(() => deleteMemory(this.#context, memoryId));
  }

  async list(input: ListInput = {}): Promise<ListPage> {
    this.#assertStarted("list");
    return listMemories(this.#context, input);
  }

  async update(id: string, input: UpdateInput): Promise<UpdateResult> {
    this.#assertStarted("update");
    return this.#writes.run(() => updateMemory(this.#context, id, input));
  }

  async deleteMatching(input: DeleteMatchingInput): Promise<DeleteMatchingResult> {
    this.#assertStarted("deleteMatching");
    return this.#writes.run(() => deleteMatching(this.#context, input));
  }

  exportMemories(options: { readonly vectors?: boolean } = {}): AsyncIterable<ExportedMemory> {
    this.#assertStarted("exportMemories");
    return exportMemories(this.#context, { vectors: options.vectors === true });
  }

  async importMemories(
    lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>,
  ): Promise<ImportResult> {
    this.#assertStarted("importMemories");
    return this.#writes.run(() => importMemories(this.#context, lines));
  }

  async stats(input: StatsInput = {}): Promise<MemoryStats> {
    this.#assertStarted("stats");
    return memoryStats(this.#context, input);
  }

  /** Deletes the memories whose expiry has passed; resolves with how many. */
  async sweepExpired(): Promise<number> {
    this.#assertStarted("sweepExpired");
    return this.#writes.run(() => sweepExpired(this.#context));
  }

  /**
   * Resolves once every recall access counted so far is written to the store (recall answers
   * before writing them). Call before closing the store at shutdown; tests call it too.
   */
  async flushAccessUpdates(): Promise<void> {
    await this.#accesses.flush();
  }

  /** Whether the engine holds a memory with this id (live or expired, not yet swept). */
  holds(id: string): boolean {
    return this.#engine.peek(id) !== undefined;
  }

  /** Memories held by the engine (expired ones not swept yet included). */
  get loadedMemories(): number {
    return this.#engine.size;
  }

  /**
   * Before `init()` (or `startLoaded()`) the engine is empty and the store not bound to the
   * embedder: a read would answer nothing and a write could mix vectors of two embedders, so
   * both are refused with an error that says what to do (a caller's bug, hence a plain Error).
   */
  #assertStarted(operation: string): void {
    if (this.#loadedFrom === undefined) {
      throw new Error(`MemoryService.${operation}(): call and await init() first`);
    }
  }

  #warn(message: string, cause: unknown): void {
    try {
      this.options.onWarning?.(message, cause);
    } catch {
      // A failing logger must not turn a warning into a failed request.
    }
  }
}
