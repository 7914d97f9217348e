/**
 * Recall's default cut: which candidates are relevant enough to enter the context when a request
 * names no `min_score`. Calibrated relevances are probabilities, so two candidates are compared
 * by their log-odds: a fall of 0.7 in log-odds is the same "clearly weaker" at 0.9 as at 0.05.
 */

/**
 * The smallest fall in log-odds between neighbouring candidates that counts as a knee (0.7: the
 * weaker one has about half the odds). Chosen on the realistic store and LoCoMo together
 * (docs/performance.md, "Recall quality"): 0.5 cuts answers on LoCoMo, 1.0 lets the realistic
 * store's context precision fall below 0.8.
 */
export const DEFAULT_RECALL_KNEE_GAP = 0.7;

/** What the default cut depends on besides the candidates. */
export interface RecallCutOptions {
  /** Nothing below this relevance is kept (`recall.min_score`). */
  readonly minScore: number;
  /** Candidates of at least this share of the best relevance are always kept (`recall.relative_floor`). */
  readonly relativeFloor: number;
  /** The smallest fall in log-odds that counts as a knee; `Infinity` turns the knee off. */
  readonly kneeGap: number;
}

const EPSILON = 1e-6;

function logOdds(p: number): number {
  const q = Math.min(1 - EPSILON, Math.max(EPSILON, p));
  return Math.log(q / (1 - q));
}

/**
 * The relevance floor of a recall from its candidates' relevances (any order). Of the candidates
 * at or above `minScore`, it finds the largest fall in log-odds between neighbours (best first);
 * when that fall is at least `kneeGap`, the candidates above it are the ones that stand out, and
 * the floor is the relevance just above the fall, lowered to `relativeFloor` times the best when
 * that is lower (candidates close to the best stay). Without a clear knee the candidates cannot
 * be told apart and every one at or above `minScore` is kept (the budget decides). The result is
 * never below `minScore`.
 *
 * @example
 * const options = { minScore: 0.02, relativeFloor: 0.5, kneeGap: 0.7 };
 * recallCutFloor([0.6, 0.55, 0.05, 0.03], options); // 0.3 (the fall to 0.05 is the knee; half the best)
 * recallCutFloor([0.9, 0.85, 0.05], options); // 0.45 (the knee is below 0.85; half the best is lower)
 * recallCutFloor([0.2, 0.18, 0.15, 0.12], options); // 0.02 (no knee: all are kept)
 * recallCutFloor([0.01], options); // 0.02 (nothing clears the floor)
 */
export function recallCutFloor(relevances: readonly number[], options: RecallCutOptions): number {
  const { minScore, relativeFloor, kneeGap } = options;
  const kept = relevances.filter((r) => r >= minScore).sort((a, b) => b - a);
  const best = kept[0];
  if (best === undefined) return minScore;
  let largest = 0;
  let above = minScore;
  for (let i = 0; i + 1 < kept.length; i += 1) {
    const fall = logOdds(kept[i] as number) - logOdds(kept[i + 1] as number);
    if (fall > largest) {
      largest = fall;
      above = kept[i] as number;
    }
  }
  if (!(largest >= kneeGap)) return minScore;
  return Math.max(minScore, Math.min(above, relativeFloor * best));
}
