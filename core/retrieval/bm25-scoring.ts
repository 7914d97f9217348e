/** BM25's term-frequency saturation: the usual 1.2 (a term's 2nd occurrence adds ~45 %, the 5th ~10 %). */
export const BM25_K1 = 1.2;
/** BM25's length normalisation: 0.75, the usual value; 0 ignores length, 1 divides by it fully. */
export const BM25_B = 0.75;

/**
 * BM25+'s lower bound (Lv and Zhai, 2011; 1 is the paper's value): every matched term adds at
 * least this, so a long document holding a query term never scores like one without it, and a
 * document matching more distinct query terms ranks higher. 0 is classic BM25. On LoCoMo it
 * raised BM25's R@5 from 0.527 to 0.548 (each conversation its own project) and from 0.480 to
 * 0.517 (all turns visible).
 */
export const BM25_DELTA = 1;

/** BM25's constants. */
export interface Bm25Parameters {
  readonly k1: number;
  readonly b: number;
  /** BM25+'s lower bound per matched term; 0 for classic BM25. */
  readonly delta: number;
}

/**
 * The BM25 inverse document frequency of a term found in `df` of `n` documents, in the
 * non-negative form Lucene uses: `ln(1 + (n - df + 0.5) / (df + 0.5))`. A term in every document
 * still weighs a little; a rare one weighs most.
 *
 * @example
 * bm25Idf(1, 1000); // ≈ 6.5
 * bm25Idf(1000, 1000); // ≈ 0.0005
 */
export function bm25Idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * One term's BM25 contribution to a document, without the IDF: `tf (k1 + 1) / (tf + k1 (1 - b +
 * b dl / avgdl)) + delta`. Grows with the term's count `tf`, saturates, and shrinks for long
 * documents (down to `delta`).
 *
 * @example
 * bm25TermWeight(1, 10, 10, { k1: 1.2, b: 0.75, delta: 0 }); // 1
 * bm25TermWeight(1, 20, 10, { k1: 1.2, b: 0.75, delta: 0 }); // ≈ 0.71 (twice the average length)
 * bm25TermWeight(1, 20, 10, { k1: 1.2, b: 0.75, delta: 0.5 }); // ≈ 1.21
 */
export function bm25TermWeight(
  tf: number,
  docLength: number,
  averageLength: number,
  { k1, b, delta }: Bm25Parameters,
): number {
  const lengthRatio = averageLength > 0 ? docLength / averageLength : 1;
  return (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * lengthRatio)) + delta;
}
