/**
 * Ranking ideas measured before they are built: each is computed from the same per-query
 * evidence the index gives (the lexical evidence of `createBm25Index()`, the cosine of the
 * embedder's vectors, the store's mean cosine μ), on every set side by side, against classic
 * BM25 (k1 1.2, b 0.75, the whole query) as in bench/ranking-sets.ts:
 *
 * - `search default`: the index's fusion `0.8 · lexical + 0.2 · (cos − μ) / (1 − μ)`, recomputed
 *   (it must match ranking-sets' "search default" line);
 * - `semantic z Z`: the semantic evidence as standard deviations above the mean cosine of the
 *   query's candidates, divided by Z and clamped to [0, 1];
 * - `neighbours G`: conversational turns lifted by their session neighbours, `s(i) + G · max
 *   s(j) / |i − j|` over the turns 1-2 away in the same session (documents whose id says
 *   `…/D<session>:<turn>`, i.e. LoCoMo; the other sets have no sessions and are unchanged).
 *
 * It prints R@5 (and the gain against BM25 in points) per set, then for LoCoMo the share of
 * questions with an evidence turn among the first 1, 5, 15, 30 and 50 (what recall's context
 * can hold at most).
 *
 * Run:
 *   npx tsx bench/ranking-leads.ts [--locomo path/to/locomo10.json] [--beir dir]...
 */
import { parseArgs } from "node:util";
import { createBm25Index } from "../core/retrieval/index.js";
import { semanticEvidence } from "../core/retrieval/calibration.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { beirSet, locomoSet, teamSet, type DataSet } from "./support/ranking-data.js";
import { evidenceRecall } from "./support/retrieval-metrics.js";

const { values } = parseArgs({
  options: {
    locomo: { type: "string" },
    beir: { type: "string", multiple: true, default: [] },
    embedder: { type: "string", default: "word-vectors" },
  },
});
const embedder = await makeBenchEmbedder(values.embedder);

/** One query's evidence over its candidates (the documents it may see). */
interface Evidence {
  readonly relevant: readonly string[];
  readonly ids: readonly string[];
  readonly bm25: Float64Array;
  readonly lexical: Float64Array;
  readonly cosine: Float64Array;
  readonly mu: number;
}

const dot = (a: readonly number[], b: readonly number[]) =>
  a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

async function evidenceOf(set: DataSet): Promise<Evidence[]> {
  const vectors = await embedder.embedDocuments(set.docs.map((d) => d.text));
  const sum = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) v.forEach((x, i) => (sum[i] = (sum[i] ?? 0) + x));
  const classic = createBm25Index({ delta: 0, queryText: (text) => text });
  const lexicalIndex = createBm25Index();
  set.docs.forEach((d, i) => {
    const doc = { id: d.id, text: d.text, vector: vectors[i] ?? [] };
    classic.add(doc);
    lexicalIndex.add(doc);
  });
  const out: Evidence[] = [];
  for (const q of set.queries) {
    const vector = await embedder.embedQuery(q.text);
    const seen = set.docs.flatMap((d, i) => (d.group === "" || d.group === q.group ? [i] : []));
    const ids = seen.map((i) => set.docs[i]?.id ?? "");
    const visible = new Set(ids);
    const ask = (index: typeof classic) =>
      new Map(
        index
          .query({ text: q.text, vector, topK: ids.length, accept: (id) => visible.has(id) })
          .map((h) => [h.id, h] as const),
      );
    const bm = ask(classic);
    const lex = ask(lexicalIndex);
    out.push({
      relevant: q.relevant,
      ids,
      bm25: Float64Array.from(ids, (id) => bm.get(id)?.relevance ?? 0),
      lexical: Float64Array.from(ids, (id) => lex.get(id)?.lexical ?? 0),
      cosine: Float64Array.from(seen, (i) => dot(vector, vectors[i] ?? [])),
      mu: dot(vector, sum) / set.docs.length,
    });
  }
  return out;
}

type Ranker = (e: Evidence) => Float64Array;

const fused = (semantic: (e: Evidence, cos: number) => number): Ranker => {
  return (e) =>
    Float64Array.from(e.cosine, (cos, k) => 0.8 * (e.lexical[k] ?? 0) + 0.2 * semantic(e, cos));
};
const zScored = (z: number): Ranker => {
  return fused((e, cos) => {
    const n = e.cosine.length;
    const mean = e.cosine.reduce((s, c) => s + c, 0) / n;
    const sd = Math.sqrt(e.cosine.reduce((s, c) => s + (c - mean) ** 2, 0) / n) || 1;
    return Math.min(1, Math.max(0, (cos - mean) / sd / z));
  });
};
const TURN = /^(.*\/D\d+):(\d+)$/;
const withNeighbours = (base: Ranker, gain: number): Ranker => {
  return (e) => {
    const s = base(e);
    const at = new Map(e.ids.map((id, k) => [id, k]));
    return Float64Array.from(s, (score, k) => {
      const m = TURN.exec(e.ids[k] ?? "");
      if (m === null) return score;
      let best = 0;
      for (const d of [-2, -1, 1, 2]) {
        const j = at.get(`${m[1]}:${Number(m[2]) + d}`);
        if (j !== undefined) best = Math.max(best, (s[j] ?? 0) / Math.abs(d));
      }
      return score + gain * best;
    });
  };
};
const defaultRanker = fused((e, cos) => semanticEvidence(cos, e.mu));
const rankers: [string, Ranker][] = [
  ["BM25 (k1 1.2, b 0.75)", (e) => e.bm25],
  ["search default", defaultRanker],
  ...[5, 6, 7].map((z): [string, Ranker] => [`semantic z ${z}`, zScored(z)]),
  ...[0.3, 0.5, 1].map((g): [string, Ranker] => [
    `neighbours ${g}`,
    withNeighbours(defaultRanker, g),
  ]),
];

function ranked(e: Evidence, ranker: Ranker, k: number): string[][] {
  const s = ranker(e);
  return [...s.keys()]
    .filter((i) => (s[i] ?? 0) > 0)
    .sort((a, b) => (s[b] ?? 0) - (s[a] ?? 0) || ((e.ids[a] ?? "") < (e.ids[b] ?? "") ? -1 : 1))
    .slice(0, k)
    .map((i) => [e.ids[i] ?? ""]);
}

const sets: DataSet[] = [teamSet()];
if (values.locomo !== undefined) sets.push(locomoSet(values.locomo));
for (const dir of values.beir) sets.push(beirSet(dir));
const evidence = new Map<DataSet, Evidence[]>();
for (const set of sets) evidence.set(set, await evidenceOf(set));

console.log(`embedder ${embedder.id}; R@5, gain against BM25 in points`);
console.log(["idea".padEnd(24), ...sets.map((s) => s.name.padEnd(18))].join(" | "));
const base = new Map<DataSet, number>();
for (const [name, ranker] of rankers) {
  const cells = sets.map((set) => {
    const es = evidence.get(set) ?? [];
    const r5 =
      es.reduce((s, e) => s + evidenceRecall(ranked(e, ranker, 5), e.relevant, 5), 0) / es.length;
    if (!base.has(set)) base.set(set, r5);
    return `${r5.toFixed(3)} ${((r5 - (base.get(set) ?? 0)) * 100).toFixed(1).padStart(5)}`.padEnd(
      18,
    );
  });
  console.log([name.padEnd(24), ...cells].join(" | "));
}
const locomo = sets.find((s) => s.name === "LoCoMo");
if (locomo !== undefined) {
  const depths = [1, 5, 15, 30, 50];
  console.log(`\nLoCoMo: questions with an evidence turn among the first ${depths.join(" / ")}`);
  for (const [name, ranker] of rankers) {
    const es = evidence.get(locomo) ?? [];
    const shares = depths.map((k) => {
      const held = es.filter((e) => evidenceRecall(ranked(e, ranker, k), e.relevant, k) > 0);
      return (held.length / es.length).toFixed(3);
    });
    console.log(`${name.padEnd(24)} ${shares.join(" / ")}`);
  }
}
