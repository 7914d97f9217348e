import { AgentServicesError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { Embedder } from "../ports/embedder.js";
import type { EngineSnapshots } from "../ports/engine-snapshots.js";
import type { VectorQuery } from "../ports/vector-query.js";
import type { VectorRecord, VectorStore } from "../ports/vector-store.js";
import { packContext } from "../tokens/pack-context.js";
import { contentHash } from "./content-key.js";
import { AccessWriteBehind } from "../storage/access-write-behind.js";
import { MemoryEngine } from "./engine/memory-engine.js";
import {
  loadEngine,
  saveEngineSnapshot,
  type LoadProgress,
  type LoadSource,
} from "../storage/engine-load.js";
import { KeyedLock } from "./keyed-lock.js";
import { WriteGate } from "./write-gate.js";
import { deleteMatching, type DeleteMatchingResult } from "./use-cases/delete-matching.js";
import type { ListPage } from "./engine/list-page.js";
import type { MemoryFilter } from "./engine/memory-filter.js";
import { exportMemories, type ExportedMemory } from "./use-cases/export-memories.js";
import { importMemories, type ImportResult } from "./use-cases/import-memories.js";
import { listMemories } from "./use-cases/list-memories.js";
import type { NdjsonLine } from "./ndjson-lines.js";
import { updateMemory, type UpdateResult } from "./use-cases/update-memory.js";
import { encodeMemoryMetadata } from "./memory-metadata.js";
import { accessKeys, duplicateMergeMetadata, withMerge } from "./metadata-updates.js";
import {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  validateMemoryServiceOptions,
} from "./memory-service-options.js";
import { newMemory } from "./new-memory.js";
import { parseInput, parseMemoryId } from "./parse-input.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import { createHybridIndex } from "../retrieval/hybrid-index.js";
import type { RetrievalIndex } from "../retrieval/retrieval-index.js";
import {
  recallInputSchema,
  rememberBatchInputSchema,
  rememberInputSchema,
  searchInputSchema,
} from "./schemas.js";
import type { ParsedRememberInput } from "./schemas.js";
import { scoreMemory } from "./scoring.js";
import { StoreQueryReadModel } from "./engine/store-query-read-model.js";
import {
  idLockKey,
  memoryNotFound as notFound,
  rememberLockKey,
  type ServiceContext,
} from "./service-context.js";
import type {
  DeleteMatchingInput,
  ListInput,
  Memory,
  MemoryScope,
  MemoryType,
  UpdateInput,
  MemoryServiceOptions,
  MemoryStats,
  RecallInput,
  RecallResult,
  RememberBatchInput,
  RememberBatchItem,
  RememberBatchResult,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
} from "./types.js";
import type { MemoryApi } from "./memory-api.js";

/** What a {@link MemoryService} is built from. */
export interface MemoryServiceDeps {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** Overrides of {@link DEFAULT_MEMORY_SERVICE_OPTIONS}; validated by the constructor. */
  readonly options?: Partial<MemoryServiceOptions>;
  /**
   * The retrieval index that ranks memories for recall and search (default: the hybrid index,
   * BM25 fused with cosine, `createHybridIndex()`; `CosineRetrievalIndex` ranks by the vectors
   * alone). It must be empty: `init()` fills it from the store.
   */
  readonly index?: RetrievalIndex;
  /** Id generator (default `crypto.randomUUID()`); must return lower-case UUIDs. */
  readonly newId?: () => string;
  /**
   * Awaited before each write of recall accesses (default: none). Recalls answer before their
   * accesses are written, so a delay costs them nothing and merges more accesses into each write;
   * the price is what a crash can lose (the accesses of the last delay). Shutdown cuts it short.
   *
   * @example
   * new MemoryService({ store, embedder, clock, accessWriteDelay: () => sleep(1000) });
   */
  readonly accessWriteDelay?: () => Promise<void>;
  /**
   * Replica mode: reads query the store through this port on every request instead of the
   * in-process engine (`StoreQueryReadModel`), so several services may share one collection.
   * Absent (the default): owner mode, the engine, this service the store's only writer.
   */
  readonly replicaQuery?: VectorQuery;
  /**
   * Where to keep a snapshot of the engine between clean runs (owner mode only): `init()` loads
   * from it when the store still carries its mark, `saveSnapshot()` writes it at shutdown. Absent:
   * every start reads the whole store.
   */
  readonly snapshots?: EngineSnapshots;
}

/** Memories deleted per store call by the sweep. */
export const SWEEP_BATCH = 1000;

interface Candidate {
  readonly memory: Memory;
  readonly similarity: number;
  readonly score: number;
}

/** One remember of a batch, after validation. */
interface Planned {
  readonly body: ParsedRememberInput;
  readonly hash: string;
}

/**
 * The memory use cases: remember (single and batch, with duplicate merging), recall (re-ranked
 * and packed into a token budget, counting accesses), search, get, delete, stats and the expiry
 * sweep.
 *
 * Reads never touch the store: they run on the {@link MemoryEngine}, which `init()` loads from the
 * store and every acknowledged write updates. So this service must be the only writer of its
 * store (the owner rule; see docs/memory-model.md). Writes go to the store first and to the
 * engine once the store has acknowledged them; recall's access counts are the exception: exact
 * in the engine at once, persisted behind the answer ({@link AccessWriteBehind}).
 *
 * Per-key locks ({@link KeyedLock}) keep "find a duplicate, else insert" atomic per content key,
 * and a merge into a memory or its deletion atomic per id.
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
  readonly #store: VectorStore;
  readonly #embedder: Embedder;
  readonly #clock: Clock;
  readonly #newId: () => string;
  readonly #lock = new KeyedLock();
  /** Every write passes it; `saveSnapshot()` closes it first. */
  readonly #writes = new WriteGate();
  /** The engine (owner mode) or the store's own queries (replica mode). */
  readonly #engine: MemoryReadModel;
  readonly #accesses: AccessWriteBehind;
  /** What the use cases in their own files (list, update, delete by filter, export, import) use. */
  readonly #context: ServiceContext;
  readonly #snapshots: EngineSnapshots | undefined;
  #loadedFrom: LoadSource | undefined;

  constructor(deps: MemoryServiceDeps) {
    const options: MemoryServiceOptions = { ...DEFAULT_MEMORY_SERVICE_OPTIONS, ...deps.options };
    const problems = validateMemoryServiceOptions(options);
    if (problems.length > 0) throw new AgentServicesError("config_invalid", problems.join("\n"));
    this.options = options;
    this.#store = deps.store;
    this.#embedder = deps.embedder;
    this.#clock = deps.clock;
    this.#newId = deps.newId ?? (() => globalThis.crypto.randomUUID());
    this.#snapshots = deps.snapshots;
    const index = deps.index ?? createHybridIndex();
    if (index.size !== 0) throw new Error("MemoryService: the retrieval index must be empty");
    this.#engine =
      deps.replicaQuery === undefined
        ? new MemoryEngine(index, options)
        : new StoreQueryReadModel({
            query: deps.replicaQuery,
            store: deps.store,
            options,
            warn: (message, cause) => this.#warn(message, cause),
          });
    this.#accesses = new AccessWriteBehind({
      current: (id) => {
        const memory = this.#engine.peek(id);
        return memory === undefined ? undefined : accessKeys(memory);
      },
      write: (updates) => this.#store.updateMetadata(updates),
      warn: (message, cause) => this.#warn(message, cause),
      ...(deps.accessWriteDelay === undefined ? {} : { delay: deps.accessWriteDelay }),
    });
    this.#context = {
      engine: this.#engine,
      store: this.#store,
      embedder: this.#embedder,
      lock: this.#lock,
      options,
      nowMs: () => this.#nowMs(),
      newId: this.#newId,
    };
  }

  /**
   * Binds the store to this embedder's vector space (throws `embedder_mismatch` when it holds
   * vectors of another embedder), then loads every stored memory into the engine, page by page,
   * reporting progress after each page. A record that cannot be read is skipped with a warning.
   * Call once before serving; resolves with the number of memories loaded.
   */
  async init(onProgress?: (progress: LoadProgress) => void): Promise<number> {
    await this.#store.bind({
      embedderId: this.#embedder.id,
      dimensions: this.#embedder.dimensions,
    });
    if (!this.#engine.loadsFromStore) return 0;
    this.#loadedFrom = await loadEngine(
      {
        store: this.#store,
        engine: this.#engine,
        snapshots: this.#snapshots,
        skip: (record, error) =>
          this.#warn(`skipped memory record ${record.id}: it cannot be read`, error),
      },
      onProgress,
    );
    return this.#engine.size;
  }

  /** Where `init()` loaded the engine from (`undefined` before, or in replica mode). */
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
      { store: this.#store, engine: this.#engine, snapshots: this.#snapshots },
      this.#newId(),
    );
  }

  async remember(input: RememberInput): Promise<RememberResult> {
    return this.#writes.run(() => this.#remember(input));
  }

  async #remember(input: RememberInput): Promise<RememberResult> {
    const body = parseInput(rememberInputSchema, input);
    checkTtl(body, "");
    const [item] = await this.#rememberAll([{ body, hash: await contentHash(body.content) }]);
    if (item === undefined) throw new Error("remember: no result for one memory");
    return item.deduplicated
      ? { id: item.id, stored: true, deduplicated: true }
      : { id: item.id, stored: true };
  }

  async rememberBatch(input: RememberBatchInput): Promise<RememberBatchResult> {
    return this.#writes.run(() => this.#rememberBatch(input));
  }

  async #rememberBatch(input: RememberBatchInput): Promise<RememberBatchResult> {
    const { memories } = parseInput(rememberBatchInputSchema, input);
    memories.forEach((body, i) => checkTtl(body, `memories[${i}].`));
    const planned = await Promise.all(
      memories.map(async (body) => ({ body, hash: await contentHash(body.content) })),
    );
    return { memories: await this.#rememberAll(planned) };
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    const body = parseInput(recallInputSchema, input);
    const vector = await this.#embedder.embedQuery(body.message);
    const nowMs = this.#nowMs();
    const hits = (
      await this.#engine.query({
        text: body.message,
        vector,
        topK: this.options.recallCandidates,
        filter: rankedFilter(body),
        nowMs,
      })
    ).filter((hit) => hit.relevance >= (body.min_score ?? 0));
    const context = {
      nowMs,
      project: body.project,
      halfLifeHours: this.options.halfLifeHours,
      weights: this.options.weights,
    };
    const candidates: Candidate[] = hits.map((hit) => ({
      memory: hit.memory,
      similarity: hit.relevance,
      // The similarity factor is the index's relevance (lexical and vector evidence fused).
      score: scoreMemory(hit.memory, hit.relevance, context).score,
    }));
    candidates.sort(byScore);
    const packed = packContext(
      candidates.map((c) => ({ label: c.memory.type, text: c.memory.content })),
      body.budget,
    );
    const returned = packed.included.flatMap((index) => candidates[index]?.memory.id ?? []);
    // Exact in the engine at once; written to the store behind the answer.
    this.#accesses.mark(await this.#engine.recordAccess(returned, nowMs));
    return {
      context: packed.context,
      memory_count: packed.included.length,
      tokens_used: packed.tokens_used,
    };
  }

  async search(input: SearchInput): Promise<SearchResult> {
    const body = parseInput(searchInputSchema, input);
    const vector = await this.#embedder.embedQuery(body.message);
    const hits = await this.#engine.query({
      text: body.message,
      vector,
      topK: body.limit,
      filter: rankedFilter(body),
      nowMs: this.#nowMs(),
    });
    const include = new Set(body.include);
    return {
      results: hits.flatMap(({ memory, relevance }) => {
        if (relevance < (body.min_score ?? 0)) return [];
        const { id, content, type, scope, confidence } = memory;
        const summary = {
          id,
          content,
          type,
          scope,
          confidence,
          ...(include.has("tags") ? { tags: memory.tags } : {}),
          ...(include.has("project") ? { project: memory.project } : {}),
        };
        return [{ memory: summary, score: relevance }];
      }),
    };
  }

  async get(id: string): Promise<Memory> {
    const memoryId = parseMemoryId(id);
    const memory = await this.#engine.get(memoryId, this.#nowMs());
    if (memory === undefined) throw notFound(memoryId);
    return memory;
  }

  async delete(id: string): Promise<{ deleted: true }> {
    const memoryId = parseMemoryId(id);
    return this.#writes.run(() => this.#delete(memoryId));
  }

  async #delete(memoryId: string): Promise<{ deleted: true }> {
    return this.#lock.run(idLockKey(memoryId), async () => {
      if ((await this.#engine.get(memoryId, this.#nowMs())) === undefined) {
        throw notFound(memoryId);
      }
      await this.#store.delete([memoryId]);
      this.#engine.remove(memoryId);
      return { deleted: true } as const;
    });
  }

  async list(input: ListInput = {}): Promise<ListPage> {
    return listMemories(this.#context, input);
  }

  async update(id: string, input: UpdateInput): Promise<UpdateResult> {
    return this.#writes.run(() => updateMemory(this.#context, id, input));
  }

  async deleteMatching(input: DeleteMatchingInput): Promise<DeleteMatchingResult> {
    return this.#writes.run(() => deleteMatching(this.#context, input));
  }

  exportMemories(options: { readonly vectors?: boolean } = {}): AsyncIterable<ExportedMemory> {
    return exportMemories(this.#context, { vectors: options.vectors === true });
  }

  async importMemories(
    lines: AsyncIterable<NdjsonLine> | Iterable<NdjsonLine>,
  ): Promise<ImportResult> {
    return this.#writes.run(() => importMemories(this.#context, lines));
  }

  async stats(): Promise<MemoryStats> {
    return await this.#engine.stats(this.#nowMs());
  }

  async sweepExpired(): Promise<number> {
    return this.#writes.run(() => this.#sweepExpired());
  }

  async #sweepExpired(): Promise<number> {
    const nowMs = this.#nowMs();
    const expired = await this.#engine.expired(nowMs);
    let deleted = 0;
    for (let i = 0; i < expired.length; i += SWEEP_BATCH) {
      const ids = expired.slice(i, i + SWEEP_BATCH);
      await this.#lock.runAll(ids.map(idLockKey), async () => {
        // Checked again under the locks: nothing un-expires a memory today, but stay exact.
        const still: string[] = [];
        for (const id of ids) {
          const held = this.#engine.peek(id) !== undefined;
          if (held && (await this.#engine.get(id, nowMs)) === undefined) still.push(id);
        }
        if (still.length === 0) return;
        await this.#store.delete(still);
        for (const id of still) this.#engine.remove(id);
        deleted += still.length;
      });
    }
    return deleted;
  }

  /**
   * Resolves once every recall access counted so far is written to the store (recall answers
   * before writing them). Call before closing the store at shutdown; tests call it too.
   */
  async flushAccessUpdates(): Promise<void> {
    await this.#accesses.flush();
  }

  /** Memories held by the engine (expired ones not swept yet included). */
  get loadedMemories(): number {
    return this.#engine.size;
  }

  /**
   * Remembers validated bodies in order. Each one merges into the live duplicate it has (in the
   * engine, or an earlier body of the same call); the others are embedded in one call and stored
   * in one store write. The content keys of all bodies, then the ids merged into, are locked for
   * the whole call.
   */
  async #rememberAll(planned: readonly Planned[]): Promise<RememberBatchItem[]> {
    const keys = planned.map(({ body, hash }) => rememberLockKey(body, hash));
    return this.#lock.runAll(keys, async () => {
      const nowMs = this.#nowMs();
      const targets = new Map<string, Memory>();
      const duplicateOf = await Promise.all(
        planned.map(async ({ body, hash }) => {
          const found = await this.#engine.findDuplicate({ ...body, hash }, nowMs);
          if (found !== undefined) targets.set(found.id, found);
          return found?.id;
        }),
      );
      return this.#lock.runAll([...targets.keys()].map(idLockKey), async () => {
        const now = this.#nowMs();
        const merged = new Map<string, Memory>();
        const results: RememberBatchItem[] = [];
        const fresh = new Map<string, { memory: Memory; hash: string }>();
        const firstOfKey = new Map<string, string>();
        for (const [i, { body, hash }] of planned.entries()) {
          const target = duplicateOf[i];
          // Deleted or swept while this call waited for its lock: store it anew.
          const current =
            target === undefined
              ? undefined
              : (merged.get(target) ?? (await this.#engine.get(target, now)));
          if (current !== undefined) {
            merged.set(current.id, withMerge(current, body, now));
            results.push({ id: current.id, stored: true, deduplicated: true });
            continue;
          }
          const key = keys[i] as string;
          const earlier = firstOfKey.get(key);
          const entry = earlier === undefined ? undefined : fresh.get(earlier);
          if (entry !== undefined) {
            entry.memory = withMerge(entry.memory, body, Date.parse(entry.memory.updated_at));
            results.push({ id: entry.memory.id, stored: true, deduplicated: true });
            continue;
          }
          const memory = newMemory(body, this.#newId(), now, this.options);
          fresh.set(memory.id, { memory, hash });
          firstOfKey.set(key, memory.id);
          results.push({ id: memory.id, stored: true, deduplicated: false });
        }
        await this.#insert([...fresh.values()]);
        await this.#merge([...merged.values()], now);
        return results;
      });
    });
  }

  async #insert(items: readonly { memory: Memory; hash: string }[]): Promise<void> {
    if (items.length === 0) return;
    const vectors = await this.#embedder.embedDocuments(items.map((i) => i.memory.content));
    const records: VectorRecord[] = items.map(({ memory, hash }, i) => {
      const vector = vectors[i];
      if (vector === undefined) throw new Error("embedder returned fewer vectors than texts");
      return {
        id: memory.id,
        vector,
        document: memory.content,
        metadata: encodeMemoryMetadata(memory, hash),
      };
    });
    await this.#store.upsert(records);
    for (const [i, { memory, hash }] of items.entries()) {
      this.#engine.add(memory, hash, (records[i] as VectorRecord).vector);
    }
  }

  async #merge(memories: readonly Memory[], nowMs: number): Promise<void> {
    if (memories.length === 0) return;
    await this.#store.updateMetadata(
      memories.map((m) => ({ id: m.id, metadata: duplicateMergeMetadata(m, m, nowMs) })),
    );
    for (const memory of memories) {
      // Access data may have moved meanwhile (recall takes no lock): keep the engine's.
      const current = this.#engine.peek(memory.id);
      if (current === undefined) continue;
      this.#engine.update({
        ...current,
        tags: memory.tags,
        confidence: memory.confidence,
        updated_at: memory.updated_at,
      });
    }
  }

  #nowMs(): number {
    return this.#clock.now().getTime();
  }

  #warn(message: string, cause: unknown): void {
    try {
      this.options.onWarning?.(message, cause);
    } catch {
      // A failing logger must not turn a warning into a failed request.
    }
  }
}

/** The engine filter of a recall or search body. */
function rankedFilter(body: {
  readonly project: string;
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  readonly tags?: readonly string[] | undefined;
}): MemoryFilter {
  return {
    project: body.project,
    ...(body.type === undefined ? {} : { types: [body.type] }),
    ...(body.scope === undefined ? {} : { scopes: [body.scope] }),
    ...(body.tags === undefined ? {} : { tags: body.tags }),
  };
}

function checkTtl(body: ParsedRememberInput, prefix: string): void {
  if (body.ttl_seconds !== undefined && body.scope !== "ttl") {
    throw new AgentServicesError(
      "invalid_input",
      `${prefix}ttl_seconds: only applies to scope "ttl", got scope "${body.scope}"`,
    );
  }
}

/** Highest score first; ties by similarity, then id, so equal inputs give equal contexts. */
function byScore(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    b.similarity - a.similarity ||
    (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0)
  );
}
