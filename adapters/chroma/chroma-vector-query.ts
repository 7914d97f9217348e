import type { Collection, Where } from "chromadb";
import type { NearestRecord, RecordFilter, VectorQuery } from "../../core/ports/vector-query.js";
import type { StoredRecord } from "../../core/ports/vector-store.js";
import { toRecords } from "./chroma-records.js";
import { chromaClient, chromaRequest, type ChromaServerOptions } from "./chroma-request.js";

/** Options of {@link ChromaVectorQuery}. */
export interface ChromaVectorQueryOptions extends ChromaServerOptions {
  /** Collection name. Default `memories`. */
  readonly collection?: string;
  /** Per-request deadline. Default 30 000 ms. */
  readonly requestTimeoutMs?: number;
}

/** Records one `count` reads per page (ids only). */
const COUNT_PAGE = 5000;

/**
 * The {@link VectorQuery} port on a Chroma collection, for the memory service's replica mode:
 * `nearest` is Chroma's own (HNSW, approximate) query with a metadata `where`, `find` a `get`
 * with a `where`, `count` pages through the matching ids (Chroma's count takes no filter). The
 * collection is the one a `ChromaVectorStore` with the same name writes (cosine space).
 *
 * @example
 * const query = new ChromaVectorQuery({ url: "http://chroma:8000", collection: "memories" });
 * const hits = await query.nearest(vector, 10, { key: "expires_at_ms", op: "gt", value: now });
 */
export class ChromaVectorQuery implements VectorQuery {
  readonly #options: ChromaVectorQueryOptions;
  #collection: Promise<Collection> | undefined;

  constructor(options: ChromaVectorQueryOptions) {
    this.#options = options;
    chromaClient(options); // a URL that does not parse fails here, not on the first read
  }

  async nearest(
    vector: readonly number[],
    limit: number,
    filter: RecordFilter | undefined,
  ): Promise<NearestRecord[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return [];
    return this.#request(async (collection) => {
      const result = await collection.query({
        queryEmbeddings: [[...vector]],
        nResults: n,
        ...(filter === undefined ? {} : { where: toWhere(filter) }),
        include: ["documents", "metadatas", "distances"],
      });
      const records = toRecords({
        ids: result.ids[0] ?? [],
        documents: result.documents[0] ?? [],
        metadatas: result.metadatas[0] ?? [],
      });
      const distances = result.distances[0] ?? [];
      // Cosine space: distance = 1 - cosine similarity.
      return records.map((record, i) => ({ record, similarity: 1 - (distances[i] ?? 1) }));
    });
  }

  async find(filter: RecordFilter, limit: number): Promise<StoredRecord[]> {
    const n = Math.floor(limit);
    if (!(n > 0)) return [];
    return this.#request(async (collection) =>
      toRecords(
        await collection.get({
          where: toWhere(filter),
          limit: n,
          include: ["documents", "metadatas"],
        }),
      ),
    );
  }

  async count(filter: RecordFilter): Promise<number> {
    const where = toWhere(filter);
    let total = 0;
    for (let offset = 0; ; offset += COUNT_PAGE) {
      const ids = await this.#request(
        async (collection) =>
          (await collection.get({ where, limit: COUNT_PAGE, offset, include: [] })).ids,
      );
      total += ids.length;
      if (ids.length < COUNT_PAGE) return total;
    }
  }

  #request<T>(operation: (collection: Collection) => Promise<T>): Promise<T> {
    return chromaRequest(() => {
      const opening = (this.#collection ??= chromaClient(this.#options).getOrCreateCollection({
        name: this.#options.collection ?? "memories",
        embeddingFunction: null,
        configuration: { hnsw: { space: "cosine" } },
      }));
      // A failed open (server not up yet) is retried by the next call.
      opening.catch(() => {
        if (this.#collection === opening) this.#collection = undefined;
      });
      return opening.then(operation);
    }, this.#options.requestTimeoutMs ?? 30_000);
  }
}

/**
 * A {@link RecordFilter} as a Chroma `where` (which takes `$and`/`$or` of two or more clauses
 * only, so single-clause ones are unwrapped; the core never builds an empty one).
 *
 * @example
 * toWhere({ and: [{ key: "type", op: "eq", value: "rule" }] }); // { type: { $eq: "rule" } }
 */
export function toWhere(filter: RecordFilter): Where {
  if ("and" in filter || "or" in filter) {
    const [op, parts] =
      "and" in filter ? (["$and", filter.and] as const) : (["$or", filter.or] as const);
    if (parts.length === 1) return toWhere(parts[0] as RecordFilter);
    if (parts.length === 0) throw new Error("toWhere: an empty and/or has no Chroma where");
    return { [op]: parts.map(toWhere) } as Where;
  }
  const op = { eq: "$eq", gt: "$gt", lte: "$lte", in: "$in" }[filter.op];
  return { [filter.key]: { [op]: filter.value } } as Where;
}
