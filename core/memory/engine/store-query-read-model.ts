import type { RecordFilter, VectorQuery } from "../../ports/vector-query.js";
import type { StoredRecord, VectorRecord, VectorStore } from "../../ports/vector-store.js";
import { normaliseContent } from "../model/content-key.js";
import { CreatedOrder, type Ordered, type OrderPosition } from "./created-order.js";
import { compileMemoryFilter, type MemoryFilter } from "./memory-filter.js";
import { isLive, NEVER_EXPIRES_MS, type ExpiryOptions } from "../model/expiry.js";
import { decodeMemory } from "../model/memory-metadata.js";
import { withAccess } from "../model/metadata-updates.js";
import type { DuplicateKey, EngineHit, EngineQuery, MemoryReadModel } from "./read-model.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "../model/types.js";
import type { Memory, MemoryScope, MemoryStats, MemoryType } from "../model/types.js";

/** Memories kept for {@link StoreQueryReadModel.peek} (the last ones read), oldest dropped first. */
const SEEN_LIMIT = 10_000;
/** Most memories that share one content hash that the duplicate lookup reads. */
const DUPLICATE_LIMIT = 100;
/** Most expired memories one sweep reads (the next sweep takes the rest). */
const EXPIRED_LIMIT = 10_000;
/** Records per store page when the replica model reads every memory (`live`). */
const LIVE_PAGE_SIZE = 1_000;
/** Over-fetch when a tag filter, which the store cannot judge, is applied afterwards. */
const TAG_OVERFETCH = 4;

/** What a {@link StoreQueryReadModel} is built from. */
export interface StoreQueryReadModelDeps {
  readonly query: VectorQuery;
  readonly store: VectorStore;
  readonly options: ExpiryOptions;
  /** Told about a record that does not follow the memory layout (it is skipped). */
  readonly warn?: (message: string, cause: unknown) => void;
}

/**
 * The replica-mode {@link MemoryReadModel}: holds no memories and asks the store on every read
 * (`VectorQuery`), so several stateless services can share one collection and see each other's
 * writes at once. What it costs against the engine (docs/memory-model.md, "Replica mode"):
 *
 * - a store round trip per read (a filtered vector query for search and recall, ten counts for
 *   stats), instead of in-process work;
 * - ranking by the store's vector similarity alone (no BM25; relevance is the cosine clamped to
 *   [0, 1]), with the store's own index, which may be approximate (Chroma's HNSW loses records
 *   after heavy deletes);
 * - duplicate merging and access counts race between replicas (two replicas may both store
 *   the same new content; concurrent recalls on two replicas may overwrite each other's counts).
 *
 * @example
 * const reads = new StoreQueryReadModel({ query: chromaQuery, store, options });
 * const hits = await reads.query({ text, vector, topK: 10, filter: {}, nowMs });
 */
export class StoreQueryReadModel implements MemoryReadModel {
  readonly loadsFromStore = false;
  readonly #deps: StoreQueryReadModelDeps;
  /** The memories last read or written here, for `peek` (recall's access write-behind, sweep). */
  readonly #seen = new Map<string, Memory>();

  constructor(deps: StoreQueryReadModelDeps) {
    this.#deps = deps;
  }

  /** Always 0: nothing is held in process. */
  readonly size = 0;

  load(): void {
    throw new Error("StoreQueryReadModel holds no memories: nothing is loaded at startup");
  }

  add(memory: Memory): void {
    this.#see(memory);
  }

  remove(id: string): boolean {
    return this.#seen.delete(id);
  }

  update(memory: Memory): boolean {
    const known = this.#seen.get(memory.id);
    if (known === undefined) return false;
    this.#see({ ...memory, content: known.content });
    return true;
  }

  async get(id: string, nowMs: number): Promise<Memory | undefined> {
    const [record] = await this.#deps.store.get([id]);
    const memory = record === undefined ? undefined : this.#decode(record);
    return memory !== undefined && isLive(expiryOf(memory), nowMs) ? memory : undefined;
  }

  /** {@link live}, sorted: a full scan and a sort per listing page. */
  async liveInOrder(
    nowMs: number,
    order: "newest" | "oldest",
    after?: OrderPosition,
  ): Promise<Memory[]> {
    // The engine's own ordering and cursor rule, over a full read.
    const ordered = new CreatedOrder<Ordered & { readonly memory: Memory }>();
    for (const memory of await this.live(nowMs)) {
      ordered.add({ memory, id: memory.id, createdMs: Date.parse(memory.created_at), gone: false });
    }
    return [...ordered.walk(order, after)].map((item) => item.memory);
  }

  /** Reads the whole store (a full scan per call: list, delete by filter and export cost O(n)). */
  async live(nowMs: number): Promise<Memory[]> {
    const memories: Memory[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#deps.store.scan(cursor, LIVE_PAGE_SIZE);
      for (const record of page.records) {
        const memory = this.#decode(record);
        if (memory !== undefined && isLive(expiryOf(memory), nowMs)) memories.push(memory);
      }
      cursor = page.next;
    } while (cursor !== undefined);
    return memories;
  }

  peek(id: string): Memory | undefined {
    return this.#seen.get(id);
  }

  recordAccess(ids: readonly string[], nowMs: number): string[] {
    const counted: string[] = [];
    for (const id of new Set(ids)) {
      const memory = this.#seen.get(id);
      if (memory === undefined || !isLive(expiryOf(memory), nowMs)) continue;
      this.#see(withAccess(memory, nowMs, this.#deps.options));
      counted.push(id);
    }
    return counted;
  }

  async findDuplicate(key: DuplicateKey, nowMs: number): Promise<Memory | undefined> {
    const records = await this.#deps.query.find(
      {
        and: [
          { key: "content_hash", op: "eq", value: key.hash },
          { key: "type", op: "eq", value: key.type },
          { key: "scope", op: "eq", value: key.scope },
          { key: "project", op: "eq", value: key.project },
          live(nowMs),
        ],
      },
      DUPLICATE_LIMIT,
    );
    const normalised = normaliseContent(key.content);
    let found: Memory | undefined;
    for (const record of records) {
      const memory = this.#decode(record);
      if (memory === undefined || normaliseContent(memory.content) !== normalised) continue;
      if (found === undefined || olderFirst(memory, found) < 0) found = memory;
    }
    return found;
  }

  async query(query: EngineQuery): Promise<EngineHit[]> {
    const tags = query.filter.tags ?? [];
    const passes = compileMemoryFilter(query.filter);
    const nearest = await this.#deps.query.nearest(
      query.vector,
      tags.length === 0 ? query.topK : query.topK * TAG_OVERFETCH,
      storeFilter(query.filter, query.nowMs),
    );
    const hits: EngineHit[] = [];
    for (const { record, similarity } of nearest) {
      const memory = this.#decode(record);
      if (memory === undefined || !isLive(expiryOf(memory), query.nowMs) || !passes(memory)) {
        continue;
      }
      hits.push({ memory, relevance: Math.min(1, Math.max(0, similarity)), similarity });
      if (hits.length === query.topK) break;
    }
    return hits;
  }

  async stats(nowMs: number): Promise<MemoryStats> {
    const count = (key: string, value: string) =>
      this.#deps.query.count({ and: [live(nowMs), { key, op: "eq", value }] });
    const [total, types, scopes] = await Promise.all([
      this.#deps.query.count(live(nowMs)),
      Promise.all(MEMORY_TYPES.map((type) => count("type", type))),
      Promise.all(MEMORY_SCOPES.map((scope) => count("scope", scope))),
    ]);
    return {
      total_memories: total,
      by_type: Object.fromEntries(MEMORY_TYPES.map((t, i) => [t, types[i]])) as Record<
        MemoryType,
        number
      >,
      by_scope: Object.fromEntries(MEMORY_SCOPES.map((s, i) => [s, scopes[i]])) as Record<
        MemoryScope,
        number
      >,
    };
  }

  /** Holds nothing: there is no engine to snapshot. */
  records(): Iterable<VectorRecord> {
    return [];
  }

  async expired(nowMs: number): Promise<string[]> {
    const records = await this.#deps.query.find(
      { key: "expires_at_ms", op: "lte", value: nowMs },
      EXPIRED_LIMIT,
    );
    return records.flatMap((record) => this.#decode(record)?.id ?? []);
  }

  #decode(record: StoredRecord): Memory | undefined {
    try {
      const memory = decodeMemory(record);
      this.#see(memory);
      return memory;
    } catch (error) {
      this.#deps.warn?.(`skipped memory record ${record.id}: it cannot be read`, error);
      return undefined;
    }
  }

  #see(memory: Memory): void {
    this.#seen.delete(memory.id);
    this.#seen.set(memory.id, memory);
    if (this.#seen.size > SEEN_LIMIT) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }
}

function live(nowMs: number): RecordFilter {
  return { key: "expires_at_ms", op: "gt", value: nowMs };
}

/** The part of a memory filter the store can judge (tags are JSON in one key: judged after). */
function storeFilter(filter: MemoryFilter, nowMs: number): RecordFilter {
  const clauses: RecordFilter[] = [live(nowMs)];
  const project = filter.project ?? "";
  if (project !== "") {
    clauses.push({
      or: [
        { key: "project", op: "eq", value: project },
        { key: "scope", op: "eq", value: "permanent" },
      ],
    });
  }
  if (filter.types !== undefined) clauses.push({ key: "type", op: "in", value: filter.types });
  if (filter.scopes !== undefined) clauses.push({ key: "scope", op: "in", value: filter.scopes });
  return clauses.length === 1 ? live(nowMs) : { and: clauses };
}

function expiryOf(memory: Memory): number {
  return memory.expires_at === null ? NEVER_EXPIRES_MS : Date.parse(memory.expires_at);
}

function olderFirst(a: Memory, b: Memory): number {
  return a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}
