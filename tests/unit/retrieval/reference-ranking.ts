import {
  bm25Idf,
  bm25TermWeight,
  convexFusion,
  lexicalTerms,
  minMax,
  reciprocalRank,
  type IndexedDocument,
  type RetrievalHit,
  type RetrievalQuery,
} from "../../../core/retrieval/index.js";

/** The settings the reference ranks with (the index's defaults when omitted). */
export interface ReferenceSettings {
  readonly fusion: "convex" | "rrf";
  readonly vectorWeight: number;
  readonly k1: number;
  readonly b: number;
  readonly delta: number;
  readonly rrfK: number;
  readonly rrfDepth: number;
}

interface Scored {
  readonly id: string;
  readonly score: number;
}

const byRank = (a: Scored, b: Scored) =>
  b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The hybrid ranking computed the slow, obvious way from the live documents alone: every
 * statistic recomputed from scratch, every document scored, everything sorted. The index must
 * give exactly this answer (same float operations in the same order, so equality is exact).
 */
export function referenceRanking(
  live: ReadonlyMap<string, IndexedDocument>,
  query: RetrievalQuery,
  settings: ReferenceSettings,
): RetrievalHit[] {
  const docs = [...live.values()];
  const terms = new Map(docs.map((d) => [d.id, lexicalTerms(d.text)]));
  const n = docs.length;
  const totalLength = docs.reduce((sum, d) => sum + (terms.get(d.id)?.length ?? 0), 0);
  const averageLength = n > 0 ? totalLength / n : 0;
  const df = (term: string) => docs.filter((d) => terms.get(d.id)?.includes(term)).length;
  const queryTerms = [...new Set(lexicalTerms(query.text))];
  const accepted = docs.filter((d) => query.accept === undefined || query.accept(d.id));
  const q = Float32Array.from(query.vector);

  const lexical = new Map<string, number>();
  const similarity = new Map<string, number>();
  for (const doc of accepted) {
    const docTerms = terms.get(doc.id) ?? [];
    let score = 0;
    for (const term of queryTerms) {
      const tf = docTerms.filter((t) => t === term).length;
      if (tf === 0) continue;
      score += bm25Idf(df(term), n) * bm25TermWeight(tf, docTerms.length, averageLength, settings);
    }
    lexical.set(doc.id, score);
    similarity.set(doc.id, laneDot(Float32Array.from(doc.vector), q));
  }

  let fused: Scored[];
  if (settings.fusion === "rrf") {
    const lexicalRanked = accepted
      .map((d) => ({ id: d.id, score: lexical.get(d.id) ?? 0 }))
      .filter((s) => s.score > 0)
      .sort(byRank)
      .slice(0, settings.rrfDepth);
    const vectorRanked = accepted
      .map((d) => ({ id: d.id, score: similarity.get(d.id) ?? 0 }))
      .sort(byRank)
      .slice(0, settings.rrfDepth);
    const sums = new Map<string, number>();
    for (const list of [lexicalRanked, vectorRanked]) {
      list.forEach((s, i) =>
        sums.set(s.id, (sums.get(s.id) ?? 0) + reciprocalRank(i + 1, settings.rrfK)),
      );
    }
    fused = [...sums].map(([id, score]) => ({ id, score }));
  } else {
    const maxLexical = Math.max(0, ...lexical.values());
    const sims = [...similarity.values()];
    const min = Math.min(...sims);
    const max = Math.max(...sims);
    fused = accepted.map((d) => {
      const lex = minMax(lexical.get(d.id) ?? 0, 0, maxLexical);
      const score =
        settings.vectorWeight === 0
          ? lex
          : convexFusion(lex, minMax(similarity.get(d.id) ?? 0, min, max), settings.vectorWeight);
      return { id: d.id, score };
    });
  }
  const ranked = fused
    .filter((s) => s.score > 0)
    .sort(byRank)
    .slice(0, Math.floor(query.topK));
  const best = ranked[0]?.score ?? 0;
  return ranked.map((s) => ({
    id: s.id,
    relevance: s.score / best,
    similarity: similarity.get(s.id) ?? 0,
  }));
}

/**
 * The kernel's documented dot product, computed one float32 operation at a time: four lanes,
 * lane k summing the products of components j ≡ k (mod 4) in increasing j, then
 * `(lane0 + lane1) + (lane2 + lane3)`; every sum and product rounded to float32.
 */
export function laneDot(a: Float32Array, b: Float32Array): number {
  const f = Math.fround;
  const lanes = [0, 0, 0, 0];
  for (let j = 0; j < a.length; j += 1) {
    const k = j % 4;
    lanes[k] = f((lanes[k] as number) + f((a[j] as number) * (b[j] as number)));
  }
  const [l0, l1, l2, l3] = lanes as [number, number, number, number];
  return f(f(l0 + l1) + f(l2 + l3));
}
