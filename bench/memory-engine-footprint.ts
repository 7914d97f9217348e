/**
 * The in-process engine's footprint and load time, alone: builds N stored records of the load
 * benchmark's corpus (100-dimension vectors, as the default word-vector embedder makes), loads
 * them into a `MemoryEngine` with the default hybrid index (what every replica and the owner do
 * at start), and prints the load time (of `MemoryEngine.load` alone: the records are made a
 * chunk at a time outside the timed part), the heap and RSS growth per memory, and a
 * recall-sized query's CPU and latency. What bounds a replica's start and memory at 1,000,000 memories.
 *
 * Run: node --expose-gc --import tsx bench/memory-engine-footprint.ts [--n 1000000]
 */
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import type { VectorRecord } from "../core/ports/vector-store.js";
import { DEFAULT_MEMORY_SERVICE_OPTIONS, MemoryEngine } from "../core/memory/index.js";
import { encodeMemoryMetadata } from "../core/memory/model/memory-metadata.js";
import { newMemory } from "../core/memory/model/new-memory.js";
import { parseInput } from "../core/memory/model/parse-input.js";
import { rememberInputSchema } from "../core/memory/model/schemas.js";
import { createHybridIndex } from "../core/retrieval/hybrid-index.js";
import { memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const { values } = parseArgs({ options: { n: { type: "string", default: "1000000" } } });
const N = Number(values.n);
const DIMS = 100;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => (bytes / 1048576).toFixed(0);

const random = seededRandom(42);
const corpus = memoryLoadCorpus(random);
const nowMs = Date.parse("2026-11-28T00:00:00Z");
/** Records are made a chunk at a time outside the timed part, as a store scan hands them over. */
const CHUNK = 10_000;
function recordsFrom(start: number, end: number): VectorRecord[] {
  const records: VectorRecord[] = [];
  for (let i = start; i < end; i += 1) {
    const body = parseInput(rememberInputSchema, corpus.memoryBody(i));
    const memory = newMemory(
      body,
      crypto.randomUUID(),
      nowMs - (N - i) * 1000,
      DEFAULT_MEMORY_SERVICE_OPTIONS,
    );
    records.push({
      id: memory.id,
      vector: Array.from({ length: DIMS }, () => random() - 0.5),
      document: memory.content,
      metadata: encodeMemoryMetadata(
        memory,
        createHash("sha256").update(memory.content).digest("hex"),
      ),
    });
  }
  return records;
}
gc();
const before = process.memoryUsage();
const engine = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
let loadMs = 0;
let loadCpuUs = 0;
for (let start = 0; start < N; start += CHUNK) {
  const records = recordsFrom(start, Math.min(N, start + CHUNK));
  const chunkStarted = performance.now();
  const chunkCpu = process.cpuUsage();
  for (const record of records) engine.load(record);
  loadMs += performance.now() - chunkStarted;
  const used = process.cpuUsage(chunkCpu);
  loadCpuUs += used.user + used.system;
  if ((start + CHUNK) % 100_000 === 0) {
    process.stderr.write(
      `${start + CHUNK} loaded, ${(loadMs / 1000).toFixed(1)} s, RSS ${mb(process.memoryUsage().rss)} MB\n`,
    );
  }
}
// The first query reorders what the load left unordered (the index defers it to a read).
const settleStarted = performance.now();
engine.query({
  text: "deploy",
  vector: Array.from({ length: DIMS }, () => 0.1),
  topK: 1,
  filter: {},
  nowMs,
});
const settleMs = performance.now() - settleStarted;
const loadS = loadMs / 1000;
gc();
const after = process.memoryUsage();
const queries = Array.from({ length: 200 }, (_, i) => ({
  text: corpus.phrase(4),
  vector: Array.from({ length: DIMS }, () => random() - 0.5),
  project: i % 2 === 0 ? "" : `project-${i % 20}`,
}));
const times: number[] = [];
const cpu0 = process.cpuUsage();
for (const { text, vector, project } of queries) {
  const t = performance.now();
  engine.query({ text, vector, topK: 50, filter: project === "" ? {} : { project }, nowMs });
  times.push(performance.now() - t);
}
const cpu = process.cpuUsage(cpu0);
times.sort((a, b) => a - b);
const p = (q: number) =>
  (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(1);
console.log(
  `${N} memories: load ${loadS.toFixed(1)} s (${(N / loadS).toFixed(0)}/s; CPU ${(loadCpuUs / 1e6).toFixed(1)} s, ${(N / (loadCpuUs / 1e6)).toFixed(0)}/CPU s); heap +${mb(after.heapUsed - before.heapUsed)} MB, ` +
    `external+arrays +${mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers)} MB, RSS ${mb(after.rss)} MB ` +
    `(${((after.rss - before.rss) / N).toFixed(0)} B/memory); first query (deferred reorder) ${settleMs.toFixed(0)} ms; ` +
    `recall-sized query (top 50, half with a project) ${((cpu.user + cpu.system) / 1000 / queries.length).toFixed(1)} CPU ms, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`,
);
