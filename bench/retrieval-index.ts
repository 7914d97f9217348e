/**
 * Speed and memory of the hybrid retrieval index alone: N synthetic memories (seeded words,
 * random unit vectors of D dimensions), then Q queries each without a filter, with a
 * one-project-in-twenty accept filter, and BM25 alone. Prints build time, heap growth, and
 * query latency p50/p95/p99 (wall) with the CPU time per query.
 *
 * `--corpus memory-load` measures instead the corpus of `bench/memory-load.ts` (its ~100-word
 * vocabulary, its 20 projects as index groups like the engine's, vectors from the word-vector
 * embedder; `--dimensions` is then 100): recall's query (top 50) with and without a project and
 * search's (top 10), so the service benchmark's index cost is seen without HTTP around it.
 *
 * Run:
 *   npx tsx bench/retrieval-index.ts [--n 100000] [--dimensions 100] [--queries 300]
 *     [--corpus synthetic|memory-load] [--neighbour-lift 0.3]
 * (documents carry a store order like the engine's: memory-load by project and scope in writing
 * order, synthetic by one of 20 groups; `--neighbour-lift 0` measures the index without the lift)
 * (profile with `node --import tsx --cpu-prof bench/retrieval-index.ts …`)
 */
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import {
  createBm25Index,
  createHybridIndex,
  type RetrievalIndex,
  type RetrievalQuery,
} from "../core/retrieval/index.js";
import { WordVectorEmbedder } from "../adapters/local/index.js";
import { MEMORY_LOAD_PROJECTS, memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    dimensions: { type: "string", default: "100" },
    queries: { type: "string", default: "300" },
    corpus: { type: "string", default: "synthetic" },
    "neighbour-lift": { type: "string", default: "0.3" },
  },
});
const N = Number(values.n);
const D = Number(values.dimensions);
const Q = Number(values.queries);
const PROJECTS = 20;
const neighbourLift = Number(values["neighbour-lift"]);
const random = seededRandom(7);

/** Letters only (`w1a` would split into the terms `w`, `1`, `a`, found in every document). */
function syntheticWord(i: number): string {
  let word = "";
  for (let n = i + 26 * 27; n > 0; n = Math.floor(n / 26))
    word += String.fromCharCode(97 + (n % 26));
  return word;
}

const VOCABULARY = Array.from({ length: 5000 }, (_, i) => syntheticWord(i)).concat(
  (
    "deploy release build test staging production database postgres redis cache queue worker " +
    "friday review merge branch rollback migration index schema backup restore alert latency " +
    "getUserName max_retries user-service timeout retry logging metrics tracing payments"
  ).split(" "),
);

/** Skewed word choice: the commonest word is in ~25 % of documents (like `user` in a coding store), most are rare. */
function word(): string {
  const i = Math.floor(VOCABULARY.length * random() ** 2);
  return VOCABULARY[i] ?? "deploy";
}

function text(words: number): string {
  return Array.from({ length: words }, word).join(" ");
}

function unitVector(): number[] {
  const v = Array.from({ length: D }, () => random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

function measure(name: string, index: RetrievalIndex, queries: readonly RetrievalQuery[]): void {
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  for (const query of queries) {
    const start = performance.now();
    index.query(query);
    times.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ` +
      `${percentile(times, 95).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / queries.length).toFixed(1)} ms/query`,
  );
}

function build(index: RetrievalIndex, label: string): void {
  const heapBefore = process.memoryUsage().heapUsed;
  const arrayBefore = process.memoryUsage().arrayBuffers;
  const start = performance.now();
  const random2 = seededRandom(11);
  for (let i = 0; i < N; i += 1) {
    index.add({
      id: `m${String(i).padStart(6, "0")}`,
      text: text(8 + Math.floor(random2() * 24)),
      vector: unitVector(),
      order: { group: `g${i % PROJECTS}`, time: 0, tie: i },
    });
  }
  const seconds = (performance.now() - start) / 1000;
  globalThis.gc?.();
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const arrays = (process.memoryUsage().arrayBuffers - arrayBefore) / 1e6;
  console.log(
    `${label}: built ${N} documents in ${seconds.toFixed(1)} s; heap +${heap.toFixed(0)} MB, ` +
      `typed arrays +${arrays.toFixed(0)} MB${globalThis.gc === undefined ? " (run with --expose-gc for exact figures)" : ""}`,
  );
}

function memoryLoadRun(): void {
  const embedder = new WordVectorEmbedder();
  const corpus = memoryLoadCorpus(seededRandom(42));
  const index = createHybridIndex({ neighbourLift });
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  for (let i = 0; i < N; i += 1) {
    const body = corpus.memoryBody(i);
    const groups = [
      ...(body.project === "" ? [] : [`project:${body.project}`]),
      ...(body.scope === "permanent" ? ["permanent"] : []),
    ];
    const order = { group: `${body.project}\u0000${body.scope}`, time: 0, tie: i };
    const vector = embedder.embed(body.content);
    index.add({ id: `m${i}`, text: body.content, vector, groups, order });
  }
  console.log(
    `memory-load corpus: built ${N} documents in ${((performance.now() - start) / 1000).toFixed(1)} s; ` +
      `heap +${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(0)} MB`,
  );
  const queries = Array.from({ length: Q }, () => {
    const text = corpus.phrase(3 + Math.floor(random() * 4));
    return { text, vector: embedder.embed(text), topK: 50 };
  });
  measure("warm-up", index, queries);
  measure("recall (top 50)", index, queries);
  measure(
    "recall + project (top 50, groups)",
    index,
    queries.map((q, i) => ({
      ...q,
      groups: [`project:project-${i % MEMORY_LOAD_PROJECTS}`, "permanent"],
    })),
  );
  measure(
    "search (top 10)",
    index,
    queries.map((q) => ({ ...q, topK: 10 })),
  );
}

console.log(
  `retrieval index: ${N} documents × ${D} dimensions, ${Q} queries; load ` +
    `${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${cpus().length} cores`,
);
if (values.corpus === "memory-load") {
  memoryLoadRun();
  process.exit(0);
}
const hybrid = createHybridIndex({ neighbourLift });
build(hybrid, "hybrid");
const queries = Array.from({ length: Q }, () => ({
  text: text(6),
  vector: unitVector(),
  topK: 50,
}));
const project = (id: string) => Number(id.slice(1)) % PROJECTS === 3;
measure("hybrid, every document", hybrid, queries);
measure(
  "hybrid, one project in 20 (accept)",
  hybrid,
  queries.map((q) => ({ ...q, accept: project })),
);
measure(
  "hybrid, topK 10",
  hybrid,
  queries.map((q) => ({ ...q, topK: 10 })),
);
const bm25 = createBm25Index();
build(bm25, "BM25 alone");
measure("BM25 alone", bm25, queries);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
