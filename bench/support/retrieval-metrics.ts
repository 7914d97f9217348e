/** Evidence recall and reciprocal rank of one ranked answer, and their means over questions. */
export interface RetrievalScores {
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly mrr: number;
}

/**
 * The share of `evidence` found among the first `k` of `ranked` (each ranked entry may stand for
 * several keys: a deduplicated memory holds every turn with its content).
 *
 * @example
 * evidenceRecall([["a"], ["b"]], ["b", "c"], 5); // 0.5
 */
export function evidenceRecall(
  ranked: readonly (readonly string[])[],
  evidence: readonly string[],
  k: number,
): number {
  const found = new Set(ranked.slice(0, k).flat());
  return evidence.filter((e) => found.has(e)).length / evidence.length;
}

/**
 * `1 / rank` of the first ranked entry holding any evidence (within what was ranked), else 0.
 *
 * @example
 * reciprocalRankOf([["a"], ["b"]], ["b"]); // 0.5
 */
export function reciprocalRankOf(
  ranked: readonly (readonly string[])[],
  evidence: readonly string[],
): number {
  const wanted = new Set(evidence);
  const at = ranked.findIndex((keys) => keys.some((key) => wanted.has(key)));
  return at === -1 ? 0 : 1 / (at + 1);
}

/** Accumulates per-question scores, overall and per group (category). */
export class ScoreTable {
  readonly #sums = new Map<string, { r5: number; r10: number; mrr: number; n: number }>();

  add(
    groups: readonly string[],
    ranked: readonly (readonly string[])[],
    evidence: readonly string[],
  ) {
    const r5 = evidenceRecall(ranked, evidence, 5);
    const r10 = evidenceRecall(ranked, evidence, 10);
    const mrr = reciprocalRankOf(ranked.slice(0, 10), evidence);
    for (const group of groups) {
      const sum = this.#sums.get(group) ?? { r5: 0, r10: 0, mrr: 0, n: 0 };
      this.#sums.set(group, {
        r5: sum.r5 + r5,
        r10: sum.r10 + r10,
        mrr: sum.mrr + mrr,
        n: sum.n + 1,
      });
    }
  }

  /** Means per group, in insertion order, with the question count. */
  means(): Map<string, RetrievalScores & { readonly n: number }> {
    const out = new Map<string, RetrievalScores & { readonly n: number }>();
    for (const [group, s] of this.#sums) {
      out.set(group, { recallAt5: s.r5 / s.n, recallAt10: s.r10 / s.n, mrr: s.mrr / s.n, n: s.n });
    }
    return out;
  }
}
