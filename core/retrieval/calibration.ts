/**
 * Relevance with a stable meaning: the fused lexical and semantic evidence of a document,
 * mapped by one fixed monotone curve to [0, 1]. The same evidence gives the same relevance in
 * every query and every store, so a floor (`min_score`) means the same thing twice.
 *
 * The evidence (see {@link fusedEvidence}) is built from two absolute measures:
 * - lexical: the document's BM25+ score divided by the most the query's terms could score in
 *   any document (`Σ idf · (k1 + 1 + delta)` over the distinct query terms, an unknown one as rare): the
 *   share of the query's weighted words the document holds, saturated and length-normalised;
 * - semantic: how far the cosine rises above the query's mean cosine over the stored memories,
 *   as a share of the room left above it (`(cos − μ) / (1 − μ)`, clamped to [0, 1]; μ kept
 *   exactly by the index), so it does not depend on how anisotropic one embedder's space is.
 *
 * The curve is a logistic fitted (Platt scaling) to "this retrieved memory answers the
 * question" on the benchmark sets (bench/recall-calibration.ts prints the fit), shifted and
 * scaled so no evidence is 0 and full evidence is 1.
 */

/** Slope of the fitted logistic over the fused evidence. */
export const CALIBRATION_SLOPE = 13;
/** Fused evidence at which the fitted logistic is one half. */
export const CALIBRATION_MIDPOINT = 0.5;

const logistic = (x: number) => 1 / (1 + Math.exp(-CALIBRATION_SLOPE * (x - CALIBRATION_MIDPOINT)));
const AT_ZERO = logistic(0);
const AT_ONE = logistic(1);

/**
 * The calibrated relevance of fused evidence in [0, 1]: 0 for none, 1 for full, strictly
 * increasing in between (so ranking by evidence and by relevance agree).
 *
 * @example
 * calibratedRelevance(0); // 0
 * calibratedRelevance(1); // 1
 * calibratedRelevance(0.5); // 0.5
 */
export function calibratedRelevance(evidence: number): number {
  if (!(evidence > 0)) return 0;
  if (evidence >= 1) return 1;
  return (logistic(evidence) - AT_ZERO) / (AT_ONE - AT_ZERO);
}

/**
 * The semantic evidence of a cosine against the query's mean cosine `mu` over the store:
 * `(cos − μ) / (1 − μ)` clamped to [0, 1] (μ itself taken in [0, 0.99]).
 *
 * @example
 * semanticEvidence(0.8, 0.6); // 0.5
 * semanticEvidence(0.4, 0.6); // 0
 */
export function semanticEvidence(similarity: number, mu: number): number {
  const m = Math.min(0.99, Math.max(0, mu));
  const s = (similarity - m) / (1 - m);
  return s > 0 ? Math.min(1, s) : 0;
}

/**
 * The fused evidence: `(1 − w) · lexical + w · semantic`, both in [0, 1].
 *
 * @example
 * fusedEvidence(0.4, 0.2, 0.5); // 0.3
 */
export function fusedEvidence(lexical: number, semantic: number, vectorWeight: number): number {
  return (1 - vectorWeight) * lexical + vectorWeight * semantic;
}
