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
 *   `…/D<session>:<turn>`, i.e. LoCoMo; the other sets have no sessions and are unchanged);
 * - `stored GATE G`: the generic form with no session field: the neighbours are the documents
 *   stored 1-2 before or after in the same group (a project), in the set's own order, as
 *   memories written one per turn would sit in the store. GATE `none` lifts every candidate,
 *   `own` only one with lexical evidence of its own, `cap` by at most its own score;
 * - `shuffled GATE G`: the same over a seeded shuffle of the order (a store whose order means
 *   nothing: what the lift costs where neighbours are unrelated).
 *
 * It prints R@5 (and the gain against BM25 in points) per set, then for LoCoMo the share of
 * questions with an evidence turn among the first 1, 5, 15, 30 and 50 (what recall's context
 * can hold at most).
 *
 * Run:
 *   npx tsx bench/ranking-leads.ts [--locomo path/to/locomo10.json] [--beir dir]...
 *     [--longmemeval path/to/longmemeval.json] [--ideas REGEX (the ideas whose name matches)]
 */
import { parseArgs } from "node:util";
import { createBm25Index } from "../core/retrieval/index.js";
import { semanticEvidence } from "../core/retrieval/calibration.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import {
  beirSet,
  locomoSet,
  longMemEvalSet,
  codingSet,
  teamSet,
  type DataSet,
} from "./support/ranking-data.js";
import { evidenceRecall } from "./support/retrieval-metrics.js";
import { seededRandom } from "./support/seeded-random.js";

const { values } = parseArgs({
  options: {
    locomo: { type: "string" },
    longmemeval: { type: "string" },
    beir: { type: "string", multiple: true, default: [] },
    embedder: { type: "string", default: "word-vectors" },
    ideas: { type: "string", default: "" },
  },
});
const embedder = await makeBenchEmbedder(values.embedder);

/** One query's evidence over its candidates (the documents it may see). */
interface Evidence {
  readonly relevant: readonly string[];
  readonly ids: readonly string[];
  /** Per candidate, the keys a hit on it counts as (its id, then the document's own keys). */
  readonly keys: readonly (readonly string[])[];
  /** Per candidate, the candidates stored 1 and 2 before and after it in its group (-1: none). */
  readonly stored: readonly (readonly number[])[];
  /** The same in a seeded shuffle of the set's order: a store whose order means nothing. */
  readonly shuffled: readonly (readonly number[])[];
  readonly bm25: Float64Array;
  readonly lexical: Float64Array;
  readonly cosine: Float64Array;
  readonly mu: number;
}

const dot = (a: readonly number[], b: readonly number[]) =>
  a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

/**
 * For each document, the documents stored 2 and 1 before it and 1 and 2 after it (-1: none)
 * among those of its own group, in the set's order: the store order of memories written one
 * after the other, with no session or turn field.
 */
function storeOrderNeighbours(set: DataSet, shuffled: boolean): number[][] {
  const order = [...set.docs.keys()];
  if (shuffled) {
    const random = seededRandom(22);
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
  }
  const byGroup = new Map<string, number[]>();
  for (const i of order) {
    const group = set.docs[i]?.group ?? "";
    byGroup.set(group, [...(byGroup.get(group) ?? []), i]);
  }
  const out: number[][] = set.docs.map(() => []);
  for (const members of byGroup.values()) {
    members.forEach((i, p) => {
      out[i] = [-2, -1, 1, 2].map((d) => members[p + d] ?? -1);
    });
  }
  return out;
}

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
  const storeNeighbours = storeOrderNeighbours(set, false);
  const shuffledNeighbours = storeOrderNeighbours(set, true);
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
    const at = new Map(seen.map((i, k) => [i, k]));
    const stored = seen.map((i) => storeNeighbours[i]?.map((j) => at.get(j) ?? -1) ?? []);
    const shuffled = seen.map((i) => shuffledNeighbours[i]?.map((j) => at.get(j) ?? -1) ?? []);
    const bm = ask(classic);
    const lex = ask(lexicalIndex);
    out.push({
      relevant: q.relevant,
      ids,
      keys: seen.map((i) => [set.docs[i]?.id ?? "", ...(set.docs[i]?.keys ?? [])]),
      stored,
      shuffled,
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
/**
 * The generic form: a candidate lifted by `gain · max s(j) / distance` over the candidates
 * stored 1-2 before or after it in its group. `gate`: "none"; "own" lifts only a candidate with
 * lexical evidence of its own; "cap" limits the lift to the candidate's own score.
 */
const withStored = (
  base: Ranker,
  gain: number,
  gate: "none" | "own" | "cap",
  order: "stored" | "shuffled" = "stored",
): Ranker => {
  return (e) => {
    const s = base(e);
    return Float64Array.from(s, (score, k) => {
      if (gate === "own" && (e.lexical[k] ?? 0) <= 0) return score;
      let best = 0;
      (e[order][k] ?? []).forEach((j, p) => {
        if (j >= 0) best = Math.max(best, (s[j] ?? 0) / (p === 0 || p === 3 ? 2 : 1));
      });
      const lift = gain * best;
      return score + (gate === "cap" ? Math.min(lift, Math.max(0, score)) : lift);
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
  ...(["none", "own", "cap"] as const).flatMap((gate) =>
    [0.3, 0.5, 1].map((g): [string, Ranker] => [
      `stored ${gate} ${g}`,
      withStored(defaultRanker, g, gate),
    ]),
  ),
  ...(["own", "cap"] as const).flatMap((gate) =>
    [0.3, 0.5].map((g): [string, Ranker] => [
      `shuffled ${gate} ${g}`,
      withStored(defaultRanker, g, gate, "shuffled"),
    ]),
  ),
];

const ideaFilter = new RegExp(values.ideas);
const chosen = rankers.filter(([name], i) => i === 0 || ideaFilter.test(name));

function ranked(e: Evidence, ranker: Ranker, k: number): (readonly string[])[] {
  const s = ranker(e);
  return [...s.keys()]
    .filter((i) => (s[i] ?? 0) > 0)
    .sort((a, b) => (s[b] ?? 0) - (s[a] ?? 0) || ((e.ids[a] ?? "") < (e.ids[b] ?? "") ? -1 : 1))
    .slice(0, k)
    .map((i) => e.keys[i] ?? []);
}

const sets: DataSet[] = [teamSet(), codingSet()];
if (values.locomo !== undefined) sets.push(locomoSet(values.locomo));
for (const dir of values.beir) sets.push(beirSet(dir));
if (values.longmemeval !== undefined) sets.push(longMemEvalSet(values.longmemeval));
const evidence = new Map<DataSet, Evidence[]>();
for (const set of sets) evidence.set(set, await evidenceOf(set));

console.log(`embedder ${embedder.id}; R@5, gain against BM25 in points`);
console.log(["idea".padEnd(24), ...sets.map((s) => s.name.padEnd(18))].join(" | "));
const base = new Map<DataSet, number>();
for (const [name, ranker] of chosen) {
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
  for (const [name, ranker] of chosen) {
    const es = evidence.get(locomo) ?? [];
    const shares = depths.map((k) => {
      const held = es.filter((e) => evidenceRecall(ranked(e, ranker, k), e.relevant, k) > 0);
      return (held.length / es.length).toFixed(3);
    });
    console.log(`${name.padEnd(24)} ${shares.join(" / ")}`);
  }
}
