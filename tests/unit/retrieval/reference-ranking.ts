import {
  bm25Idf,
  bm25TermWeight,
  calibratedRelevance,
  fusedEvidence,
  lexicalTerms,
  reciprocalRank,
  semanticEvidence,
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
  /** The store-neighbour lift (0 when omitted). */
  readonly neighbourLift?: number;
  /** Neighbours lend only within this of the candidate's order time (any when omitted). */
  readonly neighbourWindow?: number;
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

  // The most the query's terms could score, unknown terms included.
  const lexicalMax =
    n === 0
      ? 0
      : queryTerms.reduce(
          (sum, term) =>
            sum + bm25Idf(Math.max(1, df(term)), n) * (settings.k1 + 1 + settings.delta),
          0,
        );
  const lexicalOf = (id: string) => (lexicalMax > 0 ? (lexical.get(id) ?? 0) / lexicalMax : 0);
  // The query's mean cosine over the live documents, from their fixed-point sum.
  const FIXED = 2 ** 24;
  const sum: number[] = [];
  for (const doc of docs) {
    doc.vector.forEach((x, i) => {
      sum[i] = (sum[i] ?? 0) + Math.round(Math.fround(x) * FIXED);
    });
  }
  let dot = 0;
  for (let i = 0; i < query.vector.length && i < sum.length; i += 1) {
    dot += (query.vector[i] as number) * ((sum[i] as number) / FIXED);
  }
  const mu = n === 0 ? 0 : dot / n;
  const semanticOf = (id: string) =>
    settings.vectorWeight > 0 || settings.fusion === "rrf"
      ? semanticEvidence(similarity.get(id) ?? 0, mu)
      : 0;
  const evidenceOf = (id: string) =>
    fusedEvidence(lexicalOf(id), semanticOf(id), settings.vectorWeight);

  // Store neighbours: each order group's live documents sorted by (time, tie).
  const chains = new Map<string, IndexedDocument[]>();
  for (const doc of docs) {
    if (doc.order === undefined) continue;
    chains.set(doc.order.group, [...(chains.get(doc.order.group) ?? []), doc]);
  }
  const neighbours = new Map<string, [IndexedDocument | undefined, number][]>();
  for (const chain of chains.values()) {
    chain.sort(
      (a, b) =>
        (a.order?.time ?? 0) - (b.order?.time ?? 0) || (a.order?.tie ?? 0) - (b.order?.tie ?? 0),
    );
    chain.forEach((doc, i) =>
      neighbours.set(doc.id, [
        [chain[i - 1], 1],
        [chain[i - 2], 2],
        [chain[i + 1], 1],
        [chain[i + 2], 2],
      ]),
    );
  }
  const isAccepted = new Set(accepted.map((d) => d.id));
  const g = settings.neighbourLift ?? 0;
  const liftOf = (id: string) => {
    if (!(g > 0) || settings.fusion === "rrf" || !((lexical.get(id) ?? 0) > 0)) return 0;
    let best = 0;
    const time = live.get(id)?.order?.time ?? 0;
    const window = settings.neighbourWindow ?? Infinity;
    for (const [doc, d] of neighbours.get(id) ?? []) {
      const close = Math.abs((doc?.order?.time ?? 0) - time) <= window;
      if (doc !== undefined && close && isAccepted.has(doc.id)) {
        best = Math.max(best, evidenceOf(doc.id) / d);
      }
    }
    return g * best;
  };

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
    fused = accepted.map((d) => ({ id: d.id, score: evidenceOf(d.id) + liftOf(d.id) }));
  }
  const ranked = fused
    .filter((s) => s.score > 0)
    .sort(byRank)
    .slice(0, Math.floor(query.topK));
  return ranked.flatMap((s) => {
    const neighbour = liftOf(s.id);
    const evidence = settings.fusion === "rrf" ? evidenceOf(s.id) : s.score;
    if (!(evidence > 0)) return [];
    return [
      {
        id: s.id,
        relevance: calibratedRelevance(evidence),
        similarity: similarity.get(s.id) ?? 0,
        lexical: lexicalOf(s.id),
        semantic: semanticOf(s.id),
        ...(neighbour > 0 ? { neighbour } : {}),
      },
    ];
  });
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
