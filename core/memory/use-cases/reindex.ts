import type { Embedder } from "../../ports/embedder.js";
import type { VectorStore } from "../../ports/vector-store.js";

/** What {@link reindexStore} works with. */
export interface ReindexOptions {
  /** The store to read (any embedder); it is not changed. */
  readonly source: VectorStore;
  /** An empty store to write into; it is bound to `embedder`. */
  readonly target: VectorStore;
  /** The embedder whose vectors the target gets. */
  readonly embedder: Embedder;
  /** Records per page (and per embedding call and write). Default 500. */
  readonly pageSize?: number;
  /**
   * The target is the source (default false): its binding is replaced before the copy and every
   * record is rewritten where it is. For a store that cannot be swapped (PostgreSQL, whose
   * replicas are stopped meanwhile); a failure half-way leaves vectors of both embedders, and
   * running it again finishes the job.
   */
  readonly inPlace?: boolean;
  /** Told after each page: records copied so far, and the source's count when it began. */
  readonly onProgress?: (progress: { readonly copied: number; readonly total: number }) => void;
}

/**
 * Copies every record of `source` into `target` with its document and metadata unchanged and its
 * vector re-embedded by `embedder`: what `memsvc reindex` does when the configured embedder
 * changed (a store bound to another embedder refuses to start). The source stays untouched, so
 * a failure half-way loses nothing; the caller swaps the stores once this resolves.
 *
 * @example
 * const copied = await reindexStore({ source: oldStore, target: newStore, embedder });
 */
export async function reindexStore(options: ReindexOptions): Promise<number> {
  const { source, target, embedder } = options;
  const pageSize = options.pageSize ?? 500;
  await target.bind(
    { embedderId: embedder.id, dimensions: embedder.dimensions },
    options.inPlace === true ? { replace: true } : {},
  );
  const total = await source.count();
  let copied = 0;
  let cursor: string | undefined;
  do {
    const page = await source.scan(cursor, pageSize);
    if (page.records.length > 0) {
      const vectors = await embedder.embedDocuments(page.records.map((r) => r.document));
      await target.upsert(
        page.records.map((record, i) => {
          const vector = vectors[i];
          if (vector === undefined) throw new Error("embedder returned fewer vectors than texts");
          return { ...record, vector };
        }),
      );
    }
    copied += page.records.length;
    cursor = page.next;
    options.onProgress?.({ copied, total });
  } while (cursor !== undefined);
  return copied;
}
