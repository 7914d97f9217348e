/**
 * Retrieval: how relevant each memory is to a message. The exact in-process hybrid index (BM25
 * fused with cosine) behind search, recall and duplicate lookup, and its parts. Pure and
 * synchronous; it knows documents (id, text, vector) and slots, not memories.
 *
 * - `retrieval-index.ts`: the `RetrievalIndex` seam the memory engine ranks through.
 * - `hybrid-index.ts`: the default index (`createHybridIndex`, `createBm25Index`): BM25 and
 *   cosine over the same slots, fused (`fusion.ts`: convex or reciprocal rank).
 * - lexical side: `lexical-terms.ts` (BM25 terms) over `text-words.ts` (the words, shared
 *   with the word-vector embedder), `light-stem.ts`, `stop-words.ts`,
 *   `excluded-spans.ts` (what a query leaves out),
 *   `lexical-postings.ts` (typed-array postings), `bm25-scoring.ts`.
 * - vector side: `vector-matrix.ts` (rows in WebAssembly memory, int8 codes from
 *   `vector-codes.ts` for a bounded first pass), `vector-kernel.wat` and its compiled bytes
 *   `vector-kernel-wasm.ts` (SIMD dot products).
 * - shared: `slot-groups.ts` (a project's or scope's slots, for filter masks), `store-order.ts`
 *   (each group's slots in writing order, for the store-neighbour lift), `top-k.ts` (the
 *   one top-k heap), `cosine-retrieval-index.ts` (brute-force cosine reference).
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
  DEFAULT_NEIGHBOUR_LIFT,
  DEFAULT_RRF_DEPTH,
  DEFAULT_VECTOR_WEIGHT,
  type FusionMethod,
  type HybridIndexOptions,
} from "./hybrid-index.js";
export type { StoreOrderKey } from "./store-order.js";
export { CosineRetrievalIndex } from "./cosine-retrieval-index.js";
export { lexicalTerms, lexicalTermsWith } from "./lexical-terms.js";
export { withoutExcludedSpans } from "./excluded-spans.js";
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
export {
  CALIBRATION_MIDPOINT,
  CALIBRATION_SLOPE,
  calibratedRelevance,
  fusedEvidence,
  semanticEvidence,
} from "./calibration.js";
