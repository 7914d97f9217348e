/**
 * Ranking settings side by side on several data sets, to choose settings that are good
 * everywhere rather than best on one. Sets: the realistic store (bench/data/team-memories.json,
 * always), the coding paraphrases (bench/data/coding-paraphrases.json, always), LoCoMo (`--locomo path/to/locomo10.json`, each conversation its own project) and any
 * BEIR-format directory (`--beir dir`, repeatable: `corpus.jsonl`, `queries.jsonl`,
 * `qrels/test.tsv`; only judged queries are asked) and LongMemEval (`--longmemeval file`, see
 * `longMemEvalSet`). Data stays out of the repository. Documents are added in the set's order
 * with a store order per group and their instant (the realistic store: its age; the others all
 * at one instant), as memories written one after the other sit in the engine, so
 * the store-neighbour lift sees what a writer in that order would give it; `--shuffled` adds
 * them in a seeded shuffle instead (a store whose order means nothing).
 *
 * For each setting and set it prints R@5 of the relevant documents (search limit 10 through the
 * index alone) and the length ratio: the mean length in words of the top 5 hits over the mean
 * length of the set's documents (above 1: longer documents are favoured). "BM25" is classic BM25
 * (k1 1.2, b 0.75) over the index's terms of the whole query (excluded spans too, see
 * core/retrieval/excluded-spans.ts); every gain is against it.
 *
 * Run:
 *   npx tsx bench/ranking-sets.ts [--locomo path] [--beir dir]... [--longmemeval file] [--grid]
 *     [--shuffled] [--lifts 0.2,0.5 (search with these store-neighbour lifts too)]
 *     [--embedder word-vectors]
 */
import { parseArgs } from "node:util";
import {
  createBm25Index,
  createHybridIndex,
  lexicalTermsWith,
  type HybridIndexOptions,
} from "../core/retrieval/index.js";
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
    shuffled: { type: "boolean", default: false },
    lifts: { type: "string", default: "" },
    beir: { type: "string", multiple: true, default: [] },
    grid: { type: "boolean", default: false },
    embedder: { type: "string", default: "word-vectors" },
  },
});
const embedder = await makeBenchEmbedder(values.embedder);

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "").length;
const plainWords = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

interface Figures {
  readonly recallAt5: number;
  readonly lengthRatio: number;
}

type Make = () => ReturnType<typeof createHybridIndex>;

async function evaluate(
  set: DataSet,
  make: Make,
  vectors: Map<string, number[]>,
): Promise<Figures> {
  const index = make();
  const lengthOf = new Map(set.docs.map((d) => [d.id, words(d.text)]));
  const groupOf = new Map(set.docs.map((d) => [d.id, d.group]));
  // The keys a hit counts as besides its id (LongMemEval: its session).
  const keysOf = new Map(set.docs.map((d) => [d.id, d.keys ?? []]));
  writingOrder(set).forEach((i, tie) => {
    const d = set.docs[i];
    if (d === undefined) return;
    const order = { group: d.group, time: d.time ?? 0, tie };
    index.add({ id: d.id, text: d.text, vector: vectors.get(`d:${d.id}`) ?? [], order });
  });
  const meanLength = set.docs.reduce((s, d) => s + (lengthOf.get(d.id) ?? 0), 0) / set.docs.length;
  let recall = 0;
  let ratio = 0;
  for (const [i, q] of set.queries.entries()) {
    const hits = index.query({
      text: q.text,
      vector: vectors.get(`q:${i}`) ?? [],
      topK: 10,
      ...(q.group === ""
        ? {}
        : { accept: (id: string) => ["", q.group].includes(groupOf.get(id) ?? "") }),
    });
    recall += evidenceRecall(
      hits.map((h) => [h.id, ...(keysOf.get(h.id) ?? [])]),
      q.relevant,
      5,
    );
    const top = hits.slice(0, 5);
    ratio +=
      top.length === 0
        ? 1
        : top.reduce((s, h) => s + (lengthOf.get(h.id) ?? 0), 0) / top.length / meanLength;
  }
  return { recallAt5: recall / set.queries.length, lengthRatio: ratio / set.queries.length };
}

/** The documents' indices in the order they are written: the set's own, or a seeded shuffle. */
function writingOrder(set: DataSet): number[] {
  const order = [...set.docs.keys()];
  if (!values.shuffled) return order;
  const random = seededRandom(22);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  return order;
}

const sets: DataSet[] = [teamSet(), codingSet()];
if (values.locomo !== undefined) sets.push(locomoSet(values.locomo));
for (const dir of values.beir) sets.push(beirSet(dir));
if (values.longmemeval !== undefined) sets.push(longMemEvalSet(values.longmemeval));

const vectorsOf = new Map<DataSet, Map<string, number[]>>();
for (const set of sets) {
  const vectors = new Map<string, number[]>();
  const docVectors = await embedder.embedDocuments(set.docs.map((d) => d.text));
  set.docs.forEach((d, i) => vectors.set(`d:${d.id}`, docVectors[i] ?? []));
  for (const [i, q] of set.queries.entries())
    vectors.set(`q:${i}`, await embedder.embedQuery(q.text));
  vectorsOf.set(set, vectors);
}

const noStem = lexicalTermsWith((w) => w);
/** The whole query text, excluded spans too: classic BM25's query. */
const wholeQuery = (text: string) => text;
const variants: [string, Make][] = [
  [
    "textbook BM25 (words only)",
    () => createBm25Index({ delta: 0, terms: plainWords, queryText: wholeQuery }),
  ],
  ["BM25 (k1 1.2, b 0.75)", () => createBm25Index({ delta: 0, queryText: wholeQuery })],
  ["BM25 without excluded spans", () => createBm25Index({ delta: 0 })],
  ["BM25+ (delta 1)", () => createBm25Index()],
  ["search default (hybrid)", () => createHybridIndex()],
  ["search, no neighbour lift", () => createHybridIndex({ neighbourLift: 0 })],
  ["search, excluded spans kept", () => createHybridIndex({ queryText: wholeQuery })],
];
for (const g of values.lifts.split(",").filter((x) => x !== "")) {
  variants.push([`neighbour lift ${g}`, () => createHybridIndex({ neighbourLift: Number(g) })]);
}
if (values.grid) {
  const hybrid = (name: string, options: HybridIndexOptions): [string, Make] => [
    name,
    () => createHybridIndex(options),
  ];
  for (const k1 of [0.9, 1.2, 1.6]) {
    for (const b of [0.4, 0.75, 0.9]) {
      for (const delta of [0, 1])
        variants.push(hybrid(`k1 ${k1} b ${b} delta ${delta}`, { k1, b, delta }));
    }
  }
  variants.push(hybrid("no stemmer", { terms: noStem }));
  variants.push([
    "BM25 no stemmer",
    () => createBm25Index({ delta: 0, terms: noStem, queryText: wholeQuery }),
  ]);
  for (const w of [0, 0.1, 0.3, 0.5])
    variants.push(hybrid(`vector weight ${w}`, { vectorWeight: w }));
  for (const g of [0.2, 0.4, 0.5, 1])
    variants.push(hybrid(`neighbour lift ${g}`, { neighbourLift: g }));
  variants.push(hybrid("rrf k 60", { fusion: "rrf" }));
}

console.log(
  `embedder ${embedder.id}; R@5 (length ratio of the top 5); gain against BM25 in points`,
);
console.log(
  [
    "setting".padEnd(30),
    ...sets.map((s) => `${s.name} (${s.docs.length} docs, ${s.queries.length} q)`.padEnd(36)),
  ].join(" | "),
);
const baseline = new Map<DataSet, number>();
for (const [name, make] of variants) {
  const cells: string[] = [];
  for (const set of sets) {
    const f = await evaluate(set, make, vectorsOf.get(set) ?? new Map());
    if (name.startsWith("BM25 (")) baseline.set(set, f.recallAt5);
    const base = baseline.get(set);
    const gain =
      base === undefined ? "" : ` ${((f.recallAt5 - base) * 100).toFixed(1).padStart(5)}`;
    cells.push(`${f.recallAt5.toFixed(3)} (${f.lengthRatio.toFixed(2)})${gain}`.padEnd(36));
  }
  console.log([name.padEnd(30), ...cells].join(" | "));
}
