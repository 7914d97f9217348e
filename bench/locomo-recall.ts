/**
 * Recall on LoCoMo at the default budget (snap-research/LoCoMo, `locomo10.json`; the data stays out
 * of the repository, its path is the first argument). Each turn is stored as an `episode` memory
 * (each conversation its own project); each of the 1,536 questions of categories 1-4 with usable
 * evidence is recalled with the defaults (budget 2000 tokens, the default relevance floor). Prints
 * the share of questions whose context holds at least one evidence turn, the mean share of
 * evidence turns held, and the median and mean tokens used and memories per context.
 *
 * Evidence is found by content (a context line is `[episode] <turn>`), so the same command
 * measures a version of the service whose recall returns no ids.
 *
 * Run:
 *   npx tsx bench/locomo-recall.ts /path/to/locomo10.json [--budget 2000] [--min-score 0.3]
 *     [--floor 0.02] [--relative-floor 0.5] [--knee-gap 0.7]   (the configured cut:
 *     recall.min_score, recall.relative_floor and the knee, see core/memory/model/recall-cut.ts;
 *     `--knee-gap Infinity` is no knee; `--min-score` is a request's floor, which replaces them)
 *     [--neighbour-lift 0.3]   (retrieval.neighbour_lift: 0 turns the store-neighbour lift off)
 *     [--context-neighbours 2]   (recall.context_neighbours: episodes added each side of a recalled one)
 *     [--embedder word-vectors|hashing]
 */
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import { InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { makeBenchEmbedder } from "./support/bench-embedder.js";
import { loadLocomo } from "./support/locomo.js";
import { configuredFloors } from "./support/recall-floors.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    embedder: { type: "string", default: "word-vectors" },
    budget: { type: "string" },
    "min-score": { type: "string" },
    floor: { type: "string" },
    "relative-floor": { type: "string" },
    "knee-gap": { type: "string" },
    "neighbour-lift": { type: "string" },
    "context-neighbours": { type: "string" },
  },
});
const dataPath = positionals[0];
if (dataPath === undefined) {
  console.error("usage: npx tsx bench/locomo-recall.ts /path/to/locomo10.json [options]");
  process.exit(2);
}

const data = loadLocomo(dataPath);
const embedder = await makeBenchEmbedder(values.embedder);
const memory = new MemoryService({
  store: new InMemoryVectorStore(),
  embedder,
  clock: new ManualClock(new Date("2026-11-23T00:00:00Z")),
  options: configuredFloors(values),
});
await memory.init();
for (const sample of data.samples) {
  for (const t of sample.turns) {
    await memory.remember({
      content: t.content,
      type: "episode",
      scope: "project",
      project: sample.sampleId,
    });
  }
}

const line = (content: string) => `[episode] ${content.replace(/\s*[\r\n]+\s*/g, " ")}`;
const tokens: number[] = [];
const counts: number[] = [];
let anyEvidence = 0;
let evidenceShare = 0;
let questions = 0;
for (const sample of data.samples) {
  const contentOf = new Map(sample.turns.map((t) => [t.diaId, t.content]));
  for (const q of sample.questions) {
    const answer = await memory.recall({
      message: q.question,
      project: sample.sampleId,
      ...(values.budget === undefined ? {} : { budget: Number(values.budget) }),
      ...(values["min-score"] === undefined ? {} : { min_score: Number(values["min-score"]) }),
    });
    const lines = new Set(answer.context.split("\n"));
    const held = q.evidence.filter((id) => lines.has(line(contentOf.get(id) ?? "\u0000"))).length;
    if (held > 0) anyEvidence += 1;
    evidenceShare += held / q.evidence.length;
    tokens.push(answer.tokens_used);
    counts.push(answer.memory_count);
    questions += 1;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `LoCoMo recall: ${questions} questions, embedder ${embedder.id}, budget ${values.budget ?? "default"}, ` +
    `min_score ${values["min-score"] ?? "default"}, floor ${values.floor ?? "default"}, ` +
    `relative_floor ${values["relative-floor"] ?? "default"}, knee_gap ${values["knee-gap"] ?? "default"}, ` +
    `neighbour_lift ${values["neighbour-lift"] ?? "default"}, ` +
    `context_neighbours ${values["context-neighbours"] ?? "default"}`,
);
console.log(`context holds an evidence turn: ${(anyEvidence / questions).toFixed(3)}`);
console.log(`mean share of evidence turns held: ${(evidenceShare / questions).toFixed(3)}`);
console.log(`tokens used: median ${median(tokens)}, mean ${mean(tokens).toFixed(0)}`);
console.log(`memories per context: median ${median(counts)}, mean ${mean(counts).toFixed(1)}`);
