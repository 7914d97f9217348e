import { AgentServicesError } from "../errors.js";
import type {
  Metadata,
  StoredRecord,
  VectorFilter,
  VectorMatch,
  VectorQuery,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../ports/vector-store.js";
import { matchesFilter } from "./match-filter.js";

interface Entry {
  readonly vector: readonly number[];
  readonly norm: number;
  readonly document: string;
  metadata: Metadata;
}

/**
 * A VectorStore held in a Map: exact cosine similarity by brute force, the same filter semantics
 * as the Chroma adapter. For unit tests and for library users who want no server.
 *
 * `failWith(error)` makes every later call throw `store_unavailable` (until `failWith(undefined)`),
 * to test how callers handle a store outage.
 *
 * @example
 * const store = new InMemoryVectorStore();
 * await store.bind({ embedderId: "fake", dimensions: 3 });
 * await store.upsert([{ id: "a", vector: [1, 0, 0], document: "x", metadata: {} }]);
 * (await store.query({ vector: [1, 0, 0], topK: 1 }))[0]?.similarity; // 1
 */
export class InMemoryVectorStore implements VectorStore {
  readonly #entries = new Map<string, Entry>();
  #space: VectorSpace | undefined;
  #failure: Error | undefined;
  #closed = false;

  /** Makes every later call fail with `store_unavailable` caused by `error`; undefined heals. */
  failWith(error: Error | undefined): void {
    this.#failure = error;
  }

  async bind(space: VectorSpace): Promise<void> {
    this.#check();
    if (this.#space === undefined) {
      this.#space = space;
      return;
    }
    if (
      this.#space.embedderId !== space.embedderId ||
      this.#space.dimensions !== space.dimensions
    ) {
      throw new AgentServicesError(
        "embedder_mismatch",
        `the store holds vectors of embedder ${describe(this.#space)}, not ${describe(space)}`,
      );
    }
  }

  /** `fresh` changes nothing here: replacing a Map entry already drops the old metadata. */
  async upsert(
    records: readonly VectorRecord[],
    _options?: { readonly fresh?: boolean },
  ): Promise<void> {
    this.#check();
    for (const record of records) {
      if (this.#space !== undefined && record.vector.length !== this.#space.dimensions) {
        throw new AgentServicesError(
          "embedder_mismatch",
          `vector of record ${record.id} has ${record.vector.length} dimensions, expected ${this.#space.dimensions}`,
        );
      }
    }
    for (const record of records) {
      this.#entries.set(record.id, {
        vector: [...record.vector],
        norm: norm(record.vector),
        document: record.document,
        metadata: { ...record.metadata },
      });
    }
  }

  async query(query: VectorQuery): Promise<VectorMatch[]> {
    this.#check();
    const queryNorm = norm(query.vector);
    const matches: VectorMatch[] = [];
    for (const [id, entry] of this.#entries) {
      if (!matchesFilter(entry.metadata, query.filter)) continue;
      const similarity = cosine(query.vector, queryNorm, entry.vector, entry.norm);
      matches.push({ id, document: entry.document, metadata: { ...entry.metadata }, similarity });
    }
    matches.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
    return matches.slice(0, Math.max(0, query.topK));
  }

  async get(ids: readonly string[]): Promise<StoredRecord[]> {
    this.#check();
    const records: StoredRecord[] = [];
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry) records.push({ id, document: entry.document, metadata: { ...entry.metadata } });
    }
    return records;
  }

  async find(filter?: VectorFilter, limit?: number): Promise<StoredRecord[]> {
    this.#check();
    const records: StoredRecord[] = [];
    for (const [id, entry] of this.#entries) {
      if (limit !== undefined && records.length >= limit) break;
      if (matchesFilter(entry.metadata, filter)) {
        records.push({ id, document: entry.document, metadata: { ...entry.metadata } });
      }
    }
    return records;
  }

  async updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void> {
    this.#check();
    for (const { id, metadata } of updates) {
      const entry = this.#entries.get(id);
      if (entry) entry.metadata = { ...entry.metadata, ...metadata };
    }
  }

  async delete(ids: readonly string[]): Promise<number> {
    this.#check();
    let deleted = 0;
    for (const id of new Set(ids)) if (this.#entries.delete(id)) deleted += 1;
    return deleted;
  }

  async count(filter?: VectorFilter): Promise<number> {
    this.#check();
    if (filter === undefined) return this.#entries.size;
    let n = 0;
    for (const entry of this.#entries.values()) if (matchesFilter(entry.metadata, filter)) n += 1;
    return n;
  }

  async ping(): Promise<void> {
    this.#check();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #check(): void {
    if (this.#closed) {
      throw new AgentServicesError(
        "store_unavailable",
        "vector store unavailable: store is closed",
      );
    }
    if (this.#failure !== undefined) {
      throw new AgentServicesError("store_unavailable", "vector store unavailable", {
        cause: this.#failure,
      });
    }
  }
}

function describe(space: VectorSpace): string {
  return `"${space.embedderId}" (${space.dimensions} dimensions)`;
}

function norm(v: readonly number[]): number {
  let sum = 0;
  for (const x of v) sum += x * x;
  return Math.sqrt(sum);
}

function cosine(a: readonly number[], aNorm: number, b: readonly number[], bNorm: number): number {
  if (aNorm === 0 || bNorm === 0) return 0;
  let dot = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot / (aNorm * bNorm);
}
