/**
 * Retrieval: the exact in-process hybrid index (BM25 fused with cosine) behind search, recall and
 * duplicate lookup, and its parts.
 *
 * @example
 * import { createHybridIndex } from "agent-services";
 * const index = createHybridIndex();
 */
export type {
  IndexedDocument,
  RetrievalHit,
  RetrievalIndex,
  RetrievalQuery,
} from "./retrieval-index.js";
export {
  createBm25Index,
  createHybridIndex,
  DEFAULT_RRF_DEPTH,
  DEFAULT_VECTOR_WEIGHT,
  type FusionMethod,
  type HybridIndexOptions,
} from "./hybrid-index.js";
export { lexicalTerms } from "./lexical-terms.js";
export { lightStem } from "./light-stem.js";
export { STOP_WORDS } from "./stop-words.js";
export {
  BM25_B,
  BM25_DELTA,
  BM25_K1,
  bm25Idf,
  bm25TermWeight,
  type Bm25Parameters,
} from "./bm25-scoring.js";
export { convexFusion, minMax, reciprocalRank, RRF_K } from "./fusion.js";
