import type { ChromaClient, Collection, Metadata as ChromaMetadata } from "chromadb";
import { AgentServicesError } from "../../core/errors.js";
import type {
  Metadata,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../../core/ports/vector-store.js";
import { toRecords } from "./chroma-records.js";
import { chromaClient, chromaRequest } from "./chroma-request.js";
import { WriteBatcher, type MetadataUpdate } from "./write-batcher.js";

/** Options of {@link ChromaVectorStore}. */
export interface ChromaVectorStoreOptions {
  /** Base URL of the Chroma server, e.g. `http://127.0.0.1:8000`. */
  readonly url: string;
  /** Collection name. Default `memories`. */
  readonly collection?: string;
  /** Per-request deadline; a request that takes longer fails with `store_unavailable`. Default 30 000 ms. */
  readonly requestTimeoutMs?: number;
  /** Extra HTTP headers, e.g. `{ "x-chroma-token": "…" }` for a server with auth. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Chroma refuses larger record batches (its `max_batch_size`). */
const CHROMA_MAX_BATCH = 5461;
/**
 * Pages {@link ChromaVectorStore.scan} requests beyond the one asked for, so Chroma reads the
 * next pages while the caller decodes this one (the startup load is otherwise idle most of the
 * time, waiting for each page in turn).
 */
const SCAN_READ_AHEAD = 2;
const EMBEDDER_ID_KEY = "embedder_id";
const DIMENSIONS_KEY = "dimensions";
/** Collection metadata key of the engine snapshot mark ("" when none). */
const SNAPSHOT_MARK_KEY = "engine_snapshot_mark";

/**
 * A {@link VectorStore} on a Chroma server (1.x, HTTP API v2) in cosine space. Chroma's own
 * query is not used (the service ranks in process); Chroma is the durable store.
 *
 * The collection is created on first use and records the embedder id and dimension it was bound
 * to in its metadata, so a restart with another embedder fails loudly instead of mixing vector
 * spaces. Chroma's own embedding functions are never used: vectors always come from the caller.
 * Every vendor failure becomes `AgentServicesError("store_unavailable")` with the cause attached.
 *
 * Writes (upsert, updateMetadata, delete) go through one {@link WriteBatcher} per store: Chroma
 * serialises writes and each write call costs about the same whatever its size, so concurrent
 * writers share calls (group commit) instead of contending. A write resolves only once the Chroma
 * call holding it succeeded, so a read issued after it sees it. Reads run concurrently. Chroma's
 * upsert merges the metadata keys of an existing id, which is the port's upsert.
 *
 * @example
 * const store = new ChromaVectorStore({ url: "http://127.0.0.1:8000", collection: "memories" });
 * await store.bind({ embedderId: embedder.id, dimensions: embedder.dimensions });
 * const page = await store.scan(undefined, 1000);
 */
export class ChromaVectorStore implements VectorStore {
  readonly #client: ChromaClient;
  readonly #name: string;
  readonly #timeoutMs: number;
  /** The server's URL, for the errors (never its headers: they may hold a token). */
  readonly #url: string;
  #collection: Promise<Collection> | undefined;
  #dimensions: number | undefined;
  #closed = false;
  /** Pages requested ahead by `scan`, by `offset:size`; dropped by any write. */
  readonly #readAhead = new Map<string, Promise<ScanPage>>();
  readonly #writes = new WriteBatcher(
    {
      upsert: (batch) => this.#writeUpserts(batch),
      update: (batch) => this.#writeUpdates(batch),
      delete: (batch) => this.#writeDeletes(batch),
    },
    { maxBatch: CHROMA_MAX_BATCH },
  );

  constructor(options: ChromaVectorStoreOptions) {
    this.#client = chromaClient(options);
    this.#name = options.collection ?? "memories";
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    // chromaClient has parsed it; without any user and password it may carry.
    this.#url = new URL(options.url).origin;
  }

  async bind(space: VectorSpace, options: { readonly replace?: boolean } = {}): Promise<void> {
    await this.#call(async () => {
      // Fetched afresh: another process may have bound the collection since we opened it.
      const collection = await this.#openCollection();
      const metadata = collection.metadata ?? {};
      const embedderId = metadata[EMBEDDER_ID_KEY];
      const dimensions = metadata[DIMENSIONS_KEY];
      if (embedderId === undefined || embedderId === null || options.replace === true) {
        await collection.modify({
          metadata: {
            ...metadata,
            [EMBEDDER_ID_KEY]: space.embedderId,
            [DIMENSIONS_KEY]: space.dimensions,
          },
        });
      } else if (embedderId !== space.embedderId || dimensions !== space.dimensions) {
        throw new AgentServicesError(
          "embedder_mismatch",
          `the Chroma collection "${this.#name}" holds vectors of embedder "${String(embedderId)}" ` +
            `(${String(dimensions)} dimensions), not "${space.embedderId}" (${space.dimensions} dimensions); ` +
            `use the original embedder or another collection`,
        );
      }
      this.#dimensions = space.dimensions;
    });
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    for (const record of records) {
      if (this.#dimensions !== undefined && record.vector.length !== this.#dimensions) {
        throw new AgentServicesError(
          "embedder_mismatch",
          `vector of record ${record.id} has ${record.vector.length} dimensions, expected ${this.#dimensions}`,
        );
      }
    }
    this.#assertOpen();
    this.#readAhead.clear();
    await this.#writes.upsert(records);
  }

  async get(ids: readonly string[]): Promise<StoredRecord[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = new Map<string, StoredRecord>();
    for (const batch of chunks(unique, CHROMA_MAX_BATCH)) {
      const records = await this.#call(async (collection) =>
        toRecords(await collection.get({ ids: batch, include: ["documents", "metadatas"] })),
      );
      for (const record of records) found.set(record.id, record);
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Chroma pages by offset in its own stable order; the cursor is the next offset. The next
   * {@link SCAN_READ_AHEAD} pages are requested at once, so a caller paging through the store
   * finds them ready (or on the way); a write drops them.
   */
  async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isInteger(offset) || offset < 0) {
      throw new Error(`ChromaVectorStore.scan: invalid cursor ${JSON.stringify(cursor)}`);
    }
    this.#assertOpen();
    const size = Math.max(1, Math.min(CHROMA_MAX_BATCH, Math.floor(limit)));
    const page = this.#takePage(offset, size);
    for (let ahead = 1; ahead <= SCAN_READ_AHEAD; ahead += 1) {
      const at = offset + ahead * size;
      const key = `${at}:${size}`;
      if (this.#readAhead.has(key)) continue;
      const pending = this.#readPage(at, size);
      // Read ahead speculatively: a failure counts only if the caller asks for that page.
      pending.catch(() => undefined);
      this.#readAhead.set(key, pending);
    }
    return page;
  }

  #takePage(offset: number, size: number): Promise<ScanPage> {
    const key = `${offset}:${size}`;
    const ready = this.#readAhead.get(key);
    this.#readAhead.delete(key);
    return ready ?? this.#readPage(offset, size);
  }

  #readPage(offset: number, size: number): Promise<ScanPage> {
    return this.#request(async (collection) => {
      const result = await collection.get({
        limit: size,
        offset,
        include: ["documents", "metadatas", "embeddings"],
      });
      const records = toRecords(result).map((record, i) => ({
        ...record,
        vector: result.embeddings[i] ?? [],
      }));
      return { records, next: records.length < size ? undefined : String(offset + records.length) };
    });
  }

  async updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void> {
    this.#assertOpen();
    this.#readAhead.clear();
    await this.#writes.updateMetadata(updates);
  }

  async delete(ids: readonly string[]): Promise<number> {
    this.#assertOpen();
    this.#readAhead.clear();
    return this.#writes.delete(ids);
  }

  /** The mark kept in the collection's metadata (read afresh, not from a cached collection). */
  async readSnapshotMark(): Promise<string | undefined> {
    return this.#call(async () => {
      const mark = (await this.#openCollection()).metadata?.[SNAPSHOT_MARK_KEY];
      return typeof mark === "string" && mark !== "" ? mark : undefined;
    });
  }

  async writeSnapshotMark(mark: string | undefined): Promise<void> {
    this.#assertOpen();
    await this.#call(async () => {
      const collection = await this.#openCollection();
      await collection.modify({
        metadata: { ...collection.metadata, [SNAPSHOT_MARK_KEY]: mark ?? "" },
      });
    });
  }

  async count(): Promise<number> {
    return this.#call((collection) => collection.count());
  }

  async ping(): Promise<void> {
    await this.#call(async () => {
      await this.#client.heartbeat();
    });
  }

  /** Refuses new calls, then waits for the writes already queued (they were promised). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#readAhead.clear();
    await this.#writes.idle();
  }

  /** One batch of the write queue: unique ids, at most {@link CHROMA_MAX_BATCH} of them. */
  #writeUpserts(batch: readonly VectorRecord[]): Promise<void> {
    return this.#request(async (collection) => {
      await collection.upsert({
        ids: batch.map((r) => r.id),
        embeddings: batch.map((r) => [...r.vector]),
        documents: batch.map((r) => r.document),
        // Chroma rejects `{}` but accepts null for "no metadata".
        metadatas: batch.map((r) =>
          isEmpty(r.metadata) ? null : { ...r.metadata },
        ) as ChromaMetadata[],
      });
    });
  }

  /** Chroma's update merges keys and ignores unknown ids: exactly the port's semantics. */
  #writeUpdates(batch: readonly MetadataUpdate[]): Promise<void> {
    return this.#request((collection) =>
      collection.update({
        ids: batch.map((u) => u.id),
        metadatas: batch.map((u) => ({ ...u.metadata })),
      }),
    );
  }

  /** Chroma's delete always reports 0, so the ids that exist are read first. */
  #writeDeletes(batch: readonly string[]): Promise<readonly string[]> {
    return this.#request(async (collection) => {
      const existing = (await collection.get({ ids: [...batch], include: [] })).ids;
      if (existing.length > 0) await collection.delete({ ids: existing });
      return existing;
    });
  }

  #openCollection(): Promise<Collection> {
    const opening = this.#client
      .getOrCreateCollection({
        name: this.#name,
        embeddingFunction: null,
        configuration: { hnsw: { space: "cosine" } },
      })
      .then((collection) => {
        const space = collection.configuration.hnsw?.space ?? collection.configuration.spann?.space;
        if (space !== undefined && space !== null && space !== "cosine") {
          throw new AgentServicesError(
            "store_unavailable",
            `vector store unavailable: the Chroma collection "${this.#name}" uses ${space} distance, not cosine`,
          );
        }
        return collection;
      });
    this.#collection = opening;
    // A failed open (server not up yet) is retried by the next call.
    opening.catch(() => {
      if (this.#collection === opening) this.#collection = undefined;
    });
    return opening;
  }

  #assertOpen(): void {
    if (this.#closed) {
      throw new AgentServicesError(
        "store_unavailable",
        "vector store unavailable: store is closed",
      );
    }
  }

  async #call<T>(operation: (collection: Collection) => Promise<T>): Promise<T> {
    this.#assertOpen();
    return this.#request(operation);
  }

  /** One request with a deadline, vendor errors mapped; writes queued before close() use it. */
  #request<T>(operation: (collection: Collection) => Promise<T>): Promise<T> {
    return chromaRequest(
      () => (this.#collection ?? this.#openCollection()).then(operation),
      this.#timeoutMs,
      this.#url,
    );
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function isEmpty(metadata: object): boolean {
  return Object.keys(metadata).length === 0;
}
