import { AgentServicesError } from "../errors.js";
import type { Clock } from "../ports/clock.js";
import type { Embedder } from "../ports/embedder.js";
import type { StoredRecord, VectorStore } from "../ports/vector-store.js";
import { packContext } from "../tokens/pack-context.js";
import { AccessRecorder } from "./access-recorder.js";
import { queryLiveCandidates } from "./candidate-query.js";
import { contentHash } from "./content-key.js";
import { DuplicateLookup } from "./duplicate-lookup.js";
import { KeyedLock } from "./keyed-lock.js";
import { memoryIsLive } from "./memory-liveness.js";
import { decodeMemory, encodeMemoryMetadata } from "./memory-metadata.js";
import { duplicateMergeMetadata } from "./metadata-updates.js";
import {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  validateMemoryServiceOptions,
} from "./memory-service-options.js";
import { parseInput, parseMemoryId } from "./parse-input.js";
import { recallInputSchema, rememberInputSchema, searchInputSchema } from "./schemas.js";
import type { ParsedRememberInput } from "./schemas.js";
import { countMemoryStats } from "./memory-stats.js";
import { newMemory } from "./new-memory.js";
import { scoreMemory } from "./scoring.js";
import { sweepExpiredMemories } from "./sweep-expired.js";
import type {
  Memory,
  MemoryApi,
  MemoryServiceOptions,
  MemoryStats,
  RecallInput,
  RecallResult,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
} from "./types.js";

/** What a {@link MemoryService} is built from. */
export interface MemoryServiceDeps {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** Overrides of {@link DEFAULT_MEMORY_SERVICE_OPTIONS}; validated by the constructor. */
  readonly options?: Partial<MemoryServiceOptions>;
  /**
   * Id generator (default `crypto.randomUUID()`); must return lower-case UUIDs that are not stored
   * yet (new memories are upserted with `fresh: true`).
   */
  readonly newId?: () => string;
  /**
   * Awaited before each write of recall accesses (default: none, write as soon as the previous
   * one is done). Recalls answer before their accesses are written, so a delay costs them
   * nothing; it merges more recalls into each write, so the store spends less time writing and
   * more answering queries (each Chroma write also slows the queries running beside it). The
   * price: other processes see an access, and a crash loses it, that much later.
   *
   * @example
   * new MemoryService({ store, embedder, clock, accessWriteDelay: () => sleep(250) });
   */
  readonly accessWriteDelay?: () => Promise<void>;
}

interface Candidate {
  readonly memory: Memory;
  readonly similarity: number;
  readonly score: number;
}

/**
 * The memory use cases over the ports: remember (with duplicate merging), recall (re-ranked and
 * packed into a token budget, updating access metadata), search, get, delete, stats and the
 * expiry sweep. Time comes only from the injected clock.
 *
 * Consistency within one process: identical concurrent `remember` calls yield one memory, and
 * concurrent recalls never lose an access-count increment (access updates are batched by one
 * {@link AccessRecorder} and read-modify-write is serialised per memory id by a
 * {@link KeyedLock}). Across processes the store offers no such guarantee.
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
  readonly #duplicates: DuplicateLookup;
  readonly #accesses: AccessRecorder;
  readonly #isLive = (record: StoredRecord, nowMs: number): boolean =>
    this.#accesses.isLive(record, nowMs);

  constructor(deps: MemoryServiceDeps) {
    const options: MemoryServiceOptions = { ...DEFAULT_MEMORY_SERVICE_OPTIONS, ...deps.options };
    const problems = validateMemoryServiceOptions(options);
    if (problems.length > 0) throw new AgentServicesError("config_invalid", problems.join("\n"));
    this.options = options;
    this.#store = deps.store;
    this.#embedder = deps.embedder;
    this.#clock = deps.clock;
    this.#newId = deps.newId ?? (() => globalThis.crypto.randomUUID());
    this.#duplicates = new DuplicateLookup(this.#store);
    this.#accesses = new AccessRecorder({
      store: this.#store,
      lock: this.#lock,
      lockKey: idLockKey,
      options,
      warn: (message, cause) => this.#warn(message, cause),
      ...(deps.accessWriteDelay === undefined ? {} : { delay: deps.accessWriteDelay }),
    });
  }

  /**
   * Binds the store to this embedder's vector space; throws `embedder_mismatch` when the store
   * already holds vectors of another embedder. Call once before serving.
   */
  async init(): Promise<void> {
    await this.#store.bind({
      embedderId: this.#embedder.id,
      dimensions: this.#embedder.dimensions,
    });
  }

  async remember(input: RememberInput): Promise<RememberResult> {
    const body = parseInput(rememberInputSchema, input);
    if (body.ttl_seconds !== undefined && body.scope !== "ttl") {
      throw new AgentServicesError(
        "invalid_input",
        `ttl_seconds: only applies to scope "ttl", got scope "${body.scope}"`,
      );
    }
    const hash = await contentHash(body.content);
    const key = ["remember", hash, body.type, body.scope, body.project].join("\u0000");
    return this.#lock.run(key, async () => {
      const nowMs = this.#nowMs();
      const duplicate = await this.#duplicates.find(
        {
          hash,
          type: body.type,
          scope: body.scope,
          project: body.project,
          content: body.content,
          nowMs,
        },
        (record) => {
          const memory = this.#decodeOrWarn(record);
          return memory === undefined ? undefined : this.#accesses.overlay(memory);
        },
      );
      if (duplicate !== undefined && (await this.#mergeDuplicate(duplicate, body))) {
        return { id: duplicate, stored: true, deduplicated: true };
      }
      return { id: await this.#insert(body, hash, nowMs), stored: true };
    });
  }

  async recall(input: RecallInput): Promise<RecallResult> {
    const body = parseInput(recallInputSchema, input);
    const vector = await this.#embedder.embedQuery(body.message);
    const nowMs = this.#nowMs();
    const matches = await queryLiveCandidates(this.#store, {
      vector,
      topK: this.options.recallCandidates,
      project: body.project,
      nowMs,
      isLive: this.#isLive,
    });
    const context = {
      nowMs,
      project: body.project,
      halfLifeHours: this.options.halfLifeHours,
      weights: this.options.weights,
    };
    const candidates: Candidate[] = [];
    for (const match of matches) {
      const decoded = this.#decodeOrWarn(match);
      if (decoded === undefined) continue;
      // Rank with the accesses not written yet, as a later read of the store would.
      const memory = this.#accesses.overlay(decoded);
      const { score } = scoreMemory(memory, match.similarity, context);
      candidates.push({ memory, similarity: match.similarity, score });
    }
    candidates.sort(byScore);
    const packed = packContext(
      candidates.map((c) => ({ label: c.memory.type, text: c.memory.content })),
      body.budget,
    );
    const returned = packed.included.flatMap((index) => candidates[index]?.memory.id ?? []);
    // Written behind the answer (a batched write costs ~1 ms per memory in Chroma, more than the
    // whole recall otherwise); reads in this process see it at once, a failure only warns.
    void this.#accesses.record(returned, nowMs);
    return {
      context: packed.context,
      memory_count: packed.included.length,
      tokens_used: packed.tokens_used,
    };
  }

  async search(input: SearchInput): Promise<SearchResult> {
    const body = parseInput(searchInputSchema, input);
    const vector = await this.#embedder.embedQuery(body.message);
    const matches = await queryLiveCandidates(this.#store, {
      vector,
      topK: body.limit,
      project: body.project,
      nowMs: this.#nowMs(),
      isLive: this.#isLive,
    });
    const results = [];
    for (const match of matches) {
      const memory = this.#decodeOrWarn(match);
      if (memory === undefined) continue;
      const { id, content, type, scope, confidence } = memory;
      results.push({ memory: { id, content, type, scope, confidence }, score: match.similarity });
    }
    return { results };
  }

  async get(id: string): Promise<Memory> {
    const memoryId = parseMemoryId(id);
    // Under the id lock, so an access write of this memory is either done or not begun, and the
    // unwritten accesses added by #getLive are counted exactly once.
    const memory = await this.#lock.run(idLockKey(memoryId), () =>
      this.#getLive(memoryId, this.#nowMs()),
    );
    if (memory === undefined) throw notFound(memoryId);
    return memory;
  }

  async delete(id: string): Promise<{ deleted: true }> {
    const memoryId = parseMemoryId(id);
    return this.#lock.run(idLockKey(memoryId), async () => {
      if ((await this.#getLive(memoryId, this.#nowMs())) === undefined) throw notFound(memoryId);
      await this.#store.delete([memoryId]);
      return { deleted: true } as const;
    });
  }

  async stats(): Promise<MemoryStats> {
    return countMemoryStats(this.#store, this.#nowMs());
  }

  async sweepExpired(): Promise<number> {
    // A recall just returned the kept ones and its access, not written yet, may extend them.
    return sweepExpiredMemories(this.#store, this.#nowMs(), (id) =>
      this.#accesses.hasUnwritten(id),
    );
  }

  /**
   * Resolves once every recall access recorded so far is written to the store (recall answers
   * before writing them). Call before closing the store at shutdown; tests call it too.
   */
  async flushAccessUpdates(): Promise<void> {
    await this.#accesses.flush();
  }

  #nowMs(): number {
    return this.#clock.now().getTime();
  }

  async #getLive(id: string, nowMs: number): Promise<Memory | undefined> {
    const [record] = await this.#store.get([id]);
    if (record === undefined) return undefined;
    const memory = this.#accesses.overlay(decodeMemory(record));
    return memoryIsLive(memory, nowMs) ? memory : undefined;
  }

  /** Merges into an existing memory; false when it vanished meanwhile (deleted or swept). */
  async #mergeDuplicate(id: string, body: ParsedRememberInput): Promise<boolean> {
    return this.#lock.run(idLockKey(id), async () => {
      const nowMs = this.#nowMs();
      const current = await this.#getLive(id, nowMs);
      if (current === undefined) return false;
      await this.#store.updateMetadata([
        { id, metadata: duplicateMergeMetadata(current, body, nowMs) },
      ]);
      return true;
    });
  }

  async #insert(body: ParsedRememberInput, hash: string, nowMs: number): Promise<string> {
    const [vector] = await this.#embedder.embedDocuments([body.content]);
    if (vector === undefined) throw new Error("embedder returned no vector for one document");
    const id = this.#newId();
    const memory = newMemory(body, id, nowMs, this.options);
    // A new random id is stored nowhere yet: the store may skip what replacing a record costs.
    await this.#store.upsert(
      [{ id, vector, document: body.content, metadata: encodeMemoryMetadata(memory, hash) }],
      { fresh: true },
    );
    return id;
  }

  #decodeOrWarn(record: StoredRecord): Memory | undefined {
    try {
      return decodeMemory(record);
    } catch (error) {
      this.#warn(`skipped memory record ${record.id}: it cannot be read`, error);
      return undefined;
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

/** Highest score first; ties by similarity, then id, so equal inputs give equal contexts. */
function byScore(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    b.similarity - a.similarity ||
    (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0)
  );
}

/** The lock key of one memory: access updates, merges and deletes of it take turns. */
function idLockKey(id: string): string {
  return `id\u0000${id}`;
}

function notFound(id: string): AgentServicesError {
  return new AgentServicesError("not_found", `memory ${id} not found`);
}
