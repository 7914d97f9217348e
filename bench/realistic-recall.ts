/**
 * Recall and search quality on a realistic store: `bench/data/team-memories.json`, 200 memories a
 * software team would keep (rules, runbooks, facts, preferences and recent working notes across
 * five projects, of ages from 1 to 300 days) and 70 questions, each with the memories that answer
 * it (4 answered by nothing in the store).
 *
 * Recall (the defaults unless told): **context precision** (the share of a context's memories
 * that answer the question, averaged over questions with a non-empty context), **answer in
 * context** (the share of answerable questions whose context holds an answering memory), the
 * share of unanswerable questions answered with an empty context, and the median tokens used.
 * Search: R@1, R@5 and MRR@10 of the answering memories against BM25 over the same memories.
 *
 * Run:
 *   npx tsx bench/realistic-recall.ts [--min-score 0.3] [--budget 2000] [--sweep]
 *     [--floor 0.02] [--relative-floor 0.5] [--knee-gap 0.7]   (the configured cut:
 *     recall.min_score, recall.relative_floor and the knee, see core/memory/model/recall-cut.ts;
 *     `--knee-gap Infinity` is no knee; `--min-score` is a request's floor, which replaces them)
 *     [--neighbour-lift 0.3]   (retrieval.neighbour_lift: 0 turns the store-neighbour lift off)
 *     [--context-neighbours 2]   (recall.context_neighbours: episodes added each side of a recalled one)
 *     [--embedder word-vectors|hashing]
 *
 * `--sweep` prints recall for floors 0 to 0.6, to choose the default floor.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import { createBm25Index } from "../core/retrieval/index.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import type { MemoryScope, MemoryType } from "../core/memory/model/types.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { configuredFloors } from "./support/recall-floors.js";
import { reciprocalRankOf, ScoreTable } from "./support/retrieval-metrics.js";

interface TeamMemory {
  id: string;
  type: MemoryType;
  scope: MemoryScope;
  project: string;
  age_days: number;
  content: string;
}
interface TeamQuestion {
  question: string;
  project: string;
  relevant: string[];
}
interface TeamSet {
  now: string;
  memories: TeamMemory[];
  questions: TeamQuestion[];
}

const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "word-vectors" },
    "min-score": { type: "string" },
    floor: { type: "string" },
    "relative-floor": { type: "string" },
    "knee-gap": { type: "string" },
    "neighbour-lift": { type: "string" },
    "context-neighbours": { type: "string" },
    budget: { type: "string" },
    sweep: { type: "boolean", default: false },
  },
});
const data = JSON.parse(
  readFileSync(new URL("./data/team-memories.json", import.meta.url), "utf8"),
) as TeamSet;
const embedder = await makeBenchEmbedder(values.embedder);
const DAY = 86_400_000;

/** A fresh service holding the set, each memory remembered at its age; keys by service id. */
async function load(): Promise<{ memory: MemoryService; keyOf: Map<string, string> }> {
  const nowMs = Date.parse(data.now);
  const clock = new ManualClock(new Date(nowMs));
  const memory = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder,
    clock,
    options: configuredFloors(values),
  });
  await memory.init();
  const keyOf = new Map<string, string>();
  const oldestFirst = [...data.memories].sort((a, b) => b.age_days - a.age_days);
  for (const m of oldestFirst) {
    clock.set(nowMs - m.age_days * DAY);
    const { id } = await memory.remember({
      content: m.content,
      type: m.type,
      scope: m.scope,
      project: m.project,
    });
    keyOf.set(id, m.id);
  }
  clock.set(nowMs);
  return { memory, keyOf };
}

interface RecallFigures {
  precision: number;
  answered: number;
  emptyWhenUnanswerable: number;
  medianTokens: number;
  meanMemories: number;
}

async function measureRecall(minScore: number | undefined): Promise<RecallFigures> {
  const { memory, keyOf } = await load();
  let precisionSum = 0;
  let withContext = 0;
  let answered = 0;
  let answerable = 0;
  let empty = 0;
  let unanswerable = 0;
  let memories = 0;
  const tokens: number[] = [];
  for (const q of data.questions) {
    const answer = await memory.recall({
      message: q.question,
      project: q.project,
      items: true,
      ...(minScore === undefined ? {} : { min_score: minScore }),
      ...(values.budget === undefined ? {} : { budget: Number(values.budget) }),
    });
    const got = (answer.items ?? []).map((i) => keyOf.get(i.id) ?? "");
    const relevant = new Set(q.relevant);
    tokens.push(answer.tokens_used);
    memories += got.length;
    if (got.length > 0) {
      withContext += 1;
      precisionSum += got.filter((k) => relevant.has(k)).length / got.length;
    }
    if (relevant.size === 0) {
      unanswerable += 1;
      if (got.length === 0) empty += 1;
    } else {
      answerable += 1;
      if (got.some((k) => relevant.has(k))) answered += 1;
    }
  }
  tokens.sort((a, b) => a - b);
  return {
    precision: withContext === 0 ? 1 : precisionSum / withContext,
    answered: answered / answerable,
    emptyWhenUnanswerable: unanswerable === 0 ? 1 : empty / unanswerable,
    medianTokens: tokens[Math.floor(tokens.length / 2)] ?? 0,
    meanMemories: memories / data.questions.length,
  };
}

async function measureSearch(): Promise<void> {
  const { memory, keyOf } = await load();
  const bm25 = createBm25Index({ delta: 0, queryText: (text) => text }); // classic BM25
  const projectOf = new Map(data.memories.map((m) => [m.id, m]));
  for (const m of data.memories) {
    bm25.add({ id: m.id, text: m.content, vector: await embedder.embedQuery(m.content) });
  }
  const search = new ScoreTable();
  const baseline = new ScoreTable();
  let top1 = 0;
  let baselineTop1 = 0;
  const answerable = data.questions.filter((q) => q.relevant.length > 0);
  for (const q of answerable) {
    const { results } = await memory.search({ message: q.question, project: q.project });
    const ranked = results.map((r) => [keyOf.get(r.memory.id) ?? ""]);
    search.add(["all"], ranked, q.relevant);
    const visible = (id: string) => {
      const m = projectOf.get(id);
      return q.project === "" || m?.project === q.project || m?.scope === "permanent";
    };
    const hits = bm25.query({
      text: q.question,
      vector: await embedder.embedQuery(q.question),
      topK: 10,
      accept: visible,
    });
    const bm25Ranked = hits.map((h) => [h.id]);
    baseline.add(["all"], bm25Ranked, q.relevant);
    if (reciprocalRankOf(ranked.slice(0, 1), q.relevant) === 1) top1 += 1;
    if (reciprocalRankOf(bm25Ranked.slice(0, 1), q.relevant) === 1) baselineTop1 += 1;
  }
  const s = search.means().get("all");
  const b = baseline.means().get("all");
  const n = answerable.length;
  console.log(`search (${n} answerable questions, limit 10): R@1 / R@5 / MRR@10`);
  console.log(
    `  search ${(top1 / n).toFixed(3)} / ${s?.recallAt5.toFixed(3)} / ${s?.mrr.toFixed(3)}` +
      `   BM25 ${(baselineTop1 / n).toFixed(3)} / ${b?.recallAt5.toFixed(3)} / ${b?.mrr.toFixed(3)}`,
  );
}

function line(label: string, f: RecallFigures): string {
  return (
    `${label.padEnd(16)} precision ${f.precision.toFixed(3)}  answer in context ${f.answered.toFixed(3)}  ` +
    `empty when unanswerable ${f.emptyWhenUnanswerable.toFixed(2)}  median tokens ${f.medianTokens}  ` +
    `memories/context ${f.meanMemories.toFixed(1)}`
  );
}

console.log(
  `realistic store: ${data.memories.length} memories, ${data.questions.length} questions; embedder ${embedder.id}; ` +
    `floor ${values.floor ?? "default"}, relative_floor ${values["relative-floor"] ?? "default"}, knee_gap ${values["knee-gap"] ?? "default"}, neighbour_lift ${values["neighbour-lift"] ?? "default"}, ` +
    `context_neighbours ${values["context-neighbours"] ?? "default"}`,
);
const floor = values["min-score"] === undefined ? undefined : Number(values["min-score"]);
console.log(
  line(
    floor === undefined ? "recall (defaults)" : `min_score ${floor}`,
    await measureRecall(floor),
  ),
);
if (values.sweep) {
  for (const f of [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6]) {
    console.log(line(`min_score ${f}`, await measureRecall(f)));
  }
}
await measureSearch();
