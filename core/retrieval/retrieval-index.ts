/**
 * The seam between the memory engine (which memories are live, which pass a filter) and retrieval
 * (how relevant each one is to a message). Pure and synchronous: an index lives in process and
 * answers exactly, with no approximate structure between a stored memory and the query that
 * should find it.
 */

import type { HybridIndexImage } from "./index-image.js";
import type { StoreOrderKey } from "./store-order.js";

/** One document to index: a memory's id, its content and its embedding. */
export interface IndexedDocument {
  readonly id: string;
  readonly text: string;
  /** The embedder's L2-normalised vector of `text`. */
  readonly vector: readonly number[];
  /**
   * Named groups the document belongs to (the engine's project and "permanent"), so a query can
   * rank one group's documents without naming them one by one ({@link RetrievalQuery.groups}).
   */
  readonly groups?: readonly string[];
  /**
   * Where the document sits in its writer's order (its group, then time and tie): the documents
   * written just before and after it in the same group are its store neighbours, which lend a
   * candidate with lexical evidence of its own part of their evidence (see
   * `HybridIndexOptions.neighbourLift`). Omitted: it has no neighbours and is no one's.
   */
  readonly order?: StoreOrderKey;
}

/** A ranked query over the indexed documents. */
export interface RetrievalQuery {
  /** The message as the user wrote it (for the lexical side). */
  readonly text: string;
  /** The embedder's query vector of `text` (for the vector side). */
  readonly vector: readonly number[];
  /** How many hits to return at most. */
  readonly topK: number;
  /**
   * Only documents for which this returns true are ranked (the engine's exact filters: liveness,
   * project, type, scope, tags). Omitted: every document.
   */
  readonly accept?: (id: string) => boolean;
  /**
   * When present, only the ids in these groups (their union; ids not indexed are ignored) are
   * ranked, each still subject to `accept`. A caller that keeps an index of its own (the engine's
   * memories per project) thus skips every other document without a call per document.
   */
  readonly candidates?: readonly Iterable<string>[];
  /**
   * When present, only documents in at least one of these groups ({@link IndexedDocument.groups})
   * are ranked, each still subject to `accept` and `candidates`. The cheap way to restrict a
   * query to a project: the index keeps each group's documents.
   */
  readonly groups?: readonly string[];
}

/** One ranked document. */
export interface RetrievalHit {
  readonly id: string;
  /**
   * Calibrated relevance in [0, 1], comparable across queries and store sizes: the same lexical
   * and semantic evidence always gives the same value (see `calibration.ts`), 0 for none.
   * Recall's relevance and search's `score`.
   */
  readonly relevance: number;
  /** Cosine similarity of the document and query vectors, in [-1, 1]. */
  readonly similarity: number;
  /** Lexical evidence in [0, 1]: BM25+ over the most the query's terms could score. */
  readonly lexical?: number;
  /** Semantic evidence in [0, 1]: the cosine's rise above the query's mean cosine. */
  readonly semantic?: number;
  /**
   * Evidence lent by the document's store neighbours, in [0, lift] (0 when it has no lexical
   * evidence of its own): added to the fused evidence before the calibration curve.
   */
  readonly neighbour?: number;
}

/**
 * An exact in-process retrieval index.
 *
 * @example
 * index.add({ id, text: "Deploys run on Fridays", vector });
 * const [best] = index.query({ text: "when do we deploy?", vector: queryVector, topK: 5 });
 */
export interface RetrievalIndex {
  /** Number of indexed documents. */
  readonly size: number;
  /** Indexes a document; an id already indexed is replaced. */
  add(document: IndexedDocument): void;
  /**
   * The vector held for a document, as the index keeps it (e.g. rounded to float32), or
   * `undefined` when the id is not indexed. What the service saves in its engine snapshot.
   */
  vectorOf(id: string): number[] | undefined;
  /** Removes a document; false when the id was not indexed. */
  remove(id: string): boolean;
  /**
   * Does now the upkeep that adds defer to the next query (e.g. reordering rows after a bulk
   * load), so that query does not pay for it. Optional; answers are the same either way.
   */
  settle?(): void;
  /**
   * The built index as data, for an engine snapshot (see `index-image.ts`; it compacts first).
   * Optional: an index without it is never snapshotted.
   */
  image?(): HybridIndexImage;
  /**
   * Loads an image into this empty index, which then answers as the one it was taken from; false
   * (and nothing loaded) when the image does not fit this index (another tokenizer). Throws
   * when the image is inconsistent.
   */
  restore?(image: HybridIndexImage): boolean;
  /**
   * The documents written up to `distance` before and after `id` in its store order (its
   * {@link IndexedDocument.order} group, within the index's neighbour window), earliest first,
   * without `id` itself; none for a document without an order or not indexed. Optional: an index
   * that keeps no order has no neighbours.
   */
  storeNeighbours?(id: string, distance: number): string[];
  /**
   * The `topK` most relevant accepted documents, most relevant first; ties by id (ascending), so
   * equal inputs give equal answers. Documents with relevance 0 may be omitted.
   */
  query(query: RetrievalQuery): RetrievalHit[];
}
