/**
 * Retrieval quality on paraphrases: a small coding-assistant memory set
 * (`bench/data/coding-paraphrases.json`, 40 memories, 40 questions that share few words with the
 * memory they should find). Prints R@1, R@5 and MRR@10 of search (the hybrid index), of BM25
 * alone and of the vectors alone, so the semantic signal can be seen on its own.
 *
 * Run:
 *   npx tsx bench/paraphrase-retrieval.ts [--embedder word-vectors|use-lite|hashing] [--vector-weight 0.4]
 *     [--through service|index]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import {
  createBm25Index,
  createHybridIndex,
  type RetrievalIndex,
} from "../core/retrieval/index.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { reciprocalRankOf, ScoreTable } from "./support/retrieval-metrics.js";

interface ParaphraseSet {
  memories: { id: string; content: string }[];
  queries: { query: string; relevant: string[] }[];
}

const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "word-vectors" },
    "vector-weight": { type: "string" },
    through: { type: "string", default: "service" },
  },
});
const data = JSON.parse(
  readFileSync(new URL("./data/coding-paraphrases.json", import.meta.url), "utf8"),
) as ParaphraseSet;
const embedder = await makeBenchEmbedder(values.embedder);
const weight = values["vector-weight"] === undefined ? undefined : Number(values["vector-weight"]);

type Ranker = (query: string) => Promise<string[][]>;

async function indexRanker(index: RetrievalIndex): Promise<Ranker> {
  const vectors = await embedder.embedDocuments(data.memories.map((m) => m.content));
  data.memories.forEach((m, i) =>
    index.add({ id: m.id, text: m.content, vector: vectors[i] ?? [] }),
  );
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
  for (const m of data.memories) {
    const { id } = await memory.remember({ content: m.content, type: "fact", scope: "permanent" });
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
  `${data.memories.length} memories, ${data.queries.length} paraphrased queries; embedder ` +
    `${embedder.id}; search through ${values.through}`,
);
console.log(`${"".padEnd(14)} R@1    R@5    MRR@10`);
for (const [name, rank] of rankers) {
  const table = new ScoreTable();
  let top1 = 0;
  for (const q of data.queries) {
    const ranked = await rank(q.query);
    table.add(["all"], ranked, q.relevant);
    top1 += reciprocalRankOf(ranked.slice(0, 1), q.relevant);
  }
  const m = table.means().get("all");
  if (m === undefined) continue;
  console.log(
    `${name.padEnd(14)} ${(top1 / data.queries.length).toFixed(3)}  ${m.recallAt5.toFixed(3)}  ${m.mrr.toFixed(3)}`,
  );
}
