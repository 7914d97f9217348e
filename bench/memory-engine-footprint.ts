/**
 * The in-process engine's footprint and load time, alone: builds N stored records of the load
 * benchmark's corpus (100-dimension vectors, as the default word-vector embedder makes), loads
 * them into a `MemoryEngine` with the default hybrid index (what every replica and the owner do
 * at start), and prints the load time, the heap and RSS growth per memory, and a recall-sized
 * query's CPU. What bounds a replica's start and memory at 1,000,000 memories.
 *
 * Run: node --expose-gc --import tsx bench/memory-engine-footprint.ts [--n 1000000]
 */
import { parseArgs } from "node:util";
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
gc();
const before = process.memoryUsage();
const engine = new MemoryEngine(createHybridIndex(), DEFAULT_MEMORY_SERVICE_OPTIONS);
const started = performance.now();
const nowMs = Date.parse("2026-11-28T00:00:00Z");
for (let i = 0; i < N; i += 1) {
  const body = parseInput(rememberInputSchema, corpus.memoryBody(i));
  const memory = newMemory(
    body,
    crypto.randomUUID(),
    nowMs - (N - i) * 1000,
    DEFAULT_MEMORY_SERVICE_OPTIONS,
  );
  const vector = Array.from({ length: DIMS }, () => random() - 0.5);
  engine.load({
    id: memory.id,
    vector,
    document: memory.content,
    metadata: encodeMemoryMetadata(memory, `h${i}`),
  });
  if ((i + 1) % 100_000 === 0) {
    process.stderr.write(
      `${i + 1} loaded, ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${mb(process.memoryUsage().rss)} MB\n`,
    );
  }
}
const loadS = (performance.now() - started) / 1000;
gc();
const after = process.memoryUsage();
const queries = Array.from({ length: 50 }, () => corpus.phrase(4));
const cpu0 = process.cpuUsage();
for (const text of queries) {
  engine.query({
    text,
    vector: Array.from({ length: DIMS }, () => random() - 0.5),
    topK: 50,
    filter: {},
    nowMs,
  });
}
const cpu = process.cpuUsage(cpu0);
console.log(
  `${N} memories: load ${loadS.toFixed(1)} s (${(N / loadS).toFixed(0)}/s); heap +${mb(after.heapUsed - before.heapUsed)} MB, ` +
    `external+arrays +${mb(after.external + after.arrayBuffers - before.external - before.arrayBuffers)} MB, RSS ${mb(after.rss)} MB ` +
    `(${((after.rss - before.rss) / N).toFixed(0)} B/memory); recall-sized query (top 50) ${((cpu.user + cpu.system) / 1000 / queries.length).toFixed(1)} CPU ms`,
);
