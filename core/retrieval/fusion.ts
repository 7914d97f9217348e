/** Reciprocal rank fusion's damping constant: 60, from Cormack et al. (2009). */
export const RRF_K = 60;

/**
 * Min-max normalisation of one score against the range seen in the same query: 0 for the lowest,
 * 1 for the highest. When every score is equal, a positive score counts as 1 and zero as 0 (one
 * document that matches is the best match; nothing that matches is no match).
 *
 * @example
 * minMax(0.5, 0.2, 0.8); // 0.5
 * minMax(3, 3, 3); // 1
 */
export function minMax(score: number, min: number, max: number): number {
  if (max > min) return (score - min) / (max - min);
  return score > 0 ? 1 : 0;
}

/**
 * The convex combination of a lexical and a vector score, both already in [0, 1] (the
 * calibrated evidences of `calibration.ts`): `(1 - w) · lexical + w · vector`.
 *
 * @example
 * convexFusion(1, 0.5, 0.4); // 0.8
 */
export function convexFusion(lexical: number, vector: number, vectorWeight: number): number {
  return (1 - vectorWeight) * lexical + vectorWeight * vector;
}

/**
 * One list's reciprocal-rank-fusion term for a document at 1-based `rank` (`undefined`: not in
 * that list): `1 / (k + rank)`.
 *
 * @example
 * reciprocalRank(1); // 1 / 61
 * reciprocalRank(undefined); // 0
 */
export function reciprocalRank(rank: number | undefined, k: number = RRF_K): number {
  return rank === undefined ? 0 : 1 / (k + rank);
}
