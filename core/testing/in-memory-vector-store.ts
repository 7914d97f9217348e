import { AgentServicesError } from "../errors.js";
import type {
  Metadata,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../ports/vector-store.js";

interface Entry {
  vector: readonly number[];
  document: string;
  metadata: Metadata;
}

/**
 * A VectorStore held in a Map, with the semantics of the Chroma adapter. For unit tests and for
 * library users who want no server.
 *
 * `failWith(error)` makes every later call throw `store_unavailable` (until `failWith(undefined)`),
 * to test how callers handle a store outage.
 *
 * @example
 * const store = new InMemoryVectorStore();
 * await store.bind({ embedderId: "fake", dimensions: 3 });
 * await store.upsert([{ id: "a", vector: [1, 0, 0], document: "x", metadata: {} }]);
 * (await store.get(["a"]))[0]?.document; // "x"
 */
export class InMemoryVectorStore implements VectorStore {
  readonly #entries = new Map<string, Entry>();
  #space: VectorSpace | undefined;
  #snapshotMark: string | undefined;
  #failure: Error | undefined;
  #closed = false;

  /** Makes every later call fail with `store_unavailable` caused by `error`; undefined heals. */
  failWith(error: Error | undefined): void {
    this.#failure = error;
  }

  async bind(space: VectorSpace, options: { readonly replace?: boolean } = {}): Promise<void> {
    this.#check();
    if (this.#space === undefined || options.replace === true) {
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

  async upsert(records: readonly VectorRecord[]): Promise<void> {
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
      const previous = this.#entries.get(record.id);
      this.#entries.set(record.id, {
        vector: [...record.vector],
        document: record.document,
        metadata: { ...previous?.metadata, ...record.metadata },
      });
    }
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

  /** The cursor is an offset into insertion order (stable while nobody writes). */
  async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    this.#check();
    const start = cursor === undefined ? 0 : Number(cursor);
    const all = [...this.#entries];
    const page = all.slice(start, start + Math.max(1, Math.floor(limit)));
    const end = start + page.length;
    return {
      records: page.map(([id, entry]) => ({
        id,
        vector: [...entry.vector],
        document: entry.document,
        metadata: { ...entry.metadata },
      })),
      next: end < all.length ? String(end) : undefined,
    };
  }

  async count(): Promise<number> {
    this.#check();
    return this.#entries.size;
  }

  async readSnapshotMark(): Promise<string | undefined> {
    this.#check();
    return this.#snapshotMark;
  }

  async writeSnapshotMark(mark: string | undefined): Promise<void> {
    this.#check();
    this.#snapshotMark = mark;
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
