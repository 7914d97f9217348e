/**
 * Retrieval quality on paraphrases: a small coding-assistant memory set
 * (`bench/data/coding-paraphrases.json`: 40 memories, each with a question that shares few words
 * with it, and 20 memories no question asks for; see `codingSet`). Prints R@1, R@5 and MRR@10 of search (the hybrid index), of BM25
 * alone and of the vectors alone, so the semantic signal can be seen on its own.
 *
 * Run:
 *   npx tsx bench/paraphrase-retrieval.ts [--embedder word-vectors|use-lite|hashing] [--vector-weight 0.4]
 *     [--through service|index]
 */
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import {
  createBm25Index,
  createHybridIndex,
  type RetrievalIndex,
} from "../core/retrieval/index.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { codingSet } from "./support/ranking-data.js";
import { reciprocalRankOf, ScoreTable } from "./support/retrieval-metrics.js";

const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "word-vectors" },
    "vector-weight": { type: "string" },
    through: { type: "string", default: "service" },
  },
});
const data = codingSet();
const embedder = await makeBenchEmbedder(values.embedder);
const weight = values["vector-weight"] === undefined ? undefined : Number(values["vector-weight"]);

type Ranker = (query: string) => Promise<string[][]>;

async function indexRanker(index: RetrievalIndex): Promise<Ranker> {
  const vectors = await embedder.embedDocuments(data.docs.map((m) => m.text));
  data.docs.forEach((m, i) => index.add({ id: m.id, text: m.text, vector: vectors[i] ?? [] }));
  return async (query) => {
    const vector = await embedder.embedQuery(query);
    return index.query({ text: query, vector, topK: 10 }).map((h) => [h.id]);
  };
}

async function serviceRanker(): Promise<Ranker> {
  const memory = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder,
    clock: new ManualClock(new Date("2026-11-23T00:00:00Z")),
  });
  await memory.init();
  const keyOf = new Map<string, string>();
  for (const m of data.docs) {
    const { id } = await memory.remember({ content: m.text, type: "fact", scope: "permanent" });
    keyOf.set(id, m.id);
  }
  return async (query) => {
    const { results } = await memory.search({ message: query, limit: 10 });
    return results.map((r) => [keyOf.get(r.memory.id) ?? r.memory.id]);
  };
}

const rankers: [string, Ranker][] = [
  [
    "search",
    values.through === "index"
      ? await indexRanker(createHybridIndex(weight === undefined ? {} : { vectorWeight: weight }))
      : await serviceRanker(),
  ],
  ["BM25+ alone", await indexRanker(createBm25Index())],
  ["vectors alone", await indexRanker(createHybridIndex({ vectorWeight: 1 }))],
];
console.log(
  `${data.docs.length} memories, ${data.queries.length} paraphrased queries; embedder ` +
    `${embedder.id}; search through ${values.through}`,
);
console.log(`${"".padEnd(14)} R@1    R@5    MRR@10`);
for (const [name, rank] of rankers) {
  const table = new ScoreTable();
  let top1 = 0;
  for (const q of data.queries) {
    const ranked = await rank(q.text);
    table.add(["all"], ranked, q.relevant);
    top1 += reciprocalRankOf(ranked.slice(0, 1), q.relevant);
  }
  const m = table.means().get("all");
  if (m === undefined) continue;
  console.log(
    `${name.padEnd(14)} ${(top1 / data.queries.length).toFixed(3)}  ${m.recallAt5.toFixed(3)}  ${m.mrr.toFixed(3)}`,
  );
}
