/**
 * What the service's thread spends on the remember path itself, without HTTP and without a
 * database: a `MemoryService` in this process (owner mode, the local word-vector embedder,
 * `NodeTextHasher`) over a store that runs the PostgreSQL adapter's group commit and statement
 * encoding (`GroupCommit`, `encodeVectors`, the records' JSON) against a statement that answers
 * at once and keeps nothing. It prints CPU and garbage-collection time per remembered memory,
 * one per call (8 concurrent callers) and in batches of 1,000 (2 concurrent), so that a change
 * to the write path can be compared before and after with less noise than the load bench
 * (`bench/memory-load.ts`), where HTTP, PostgreSQL and the load generator share the cores.
 *
 * Run: npx tsx bench/remember-write-cpu.ts [--single 4000] [--batches 16] [--rounds 3]
 */
import { PerformanceObserver } from "node:perf_hooks";
import { GroupCommit } from "../adapters/postgres/postgres-group-commit.js";
import { WordVectorEmbedder } from "../adapters/local/word-vector-embedder.js";
import { NodeTextHasher } from "../adapters/system/node-text-hasher.js";
import { SystemClock } from "../adapters/system/system-clock.js";
import { MemoryService } from "../core/memory/memory-service.js";
import type { RememberInput } from "../core/memory/model/types.js";
import type { VectorStore } from "../core/ports/vector-store.js";
import { intOption } from "./support/int-option.js";
import { memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const SINGLE = intOption("single", 4_000);
const BATCHES = intOption("batches", 16);
const ROUNDS = intOption("rounds", 3);
const BATCH = 1_000;

let seq = 0;
/** The adapter's group commit and encoding, with a statement that answers at once. */
const commits = new GroupCommit({
  transact: () => Promise.reject(new Error("one kind of write only in this bench")),
  statement: async (_text, values) => {
    const total = (values[1] as Buffer).length / 400; // 100 dimensions, 4 bytes each
    seq += total;
    return { rows: [{ seq: String(seq), total, ids: null, updated: null }] };
  },
});
const store: VectorStore = {
  bind: () => Promise.resolve(),
  upsert: async (records) => void (await commits.write({ op: "upsert", records })),
  get: async () => [],
  updateMetadata: async (updates) => void (await commits.write({ op: "update", updates })),
  delete: (ids) => commits.write({ op: "delete", ids }),
  scan: async () => ({ records: [], next: undefined }),
  count: async () => 0,
  ping: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const { memoryBody } = memoryLoadCorpus(seededRandom(42));
let next = 0;

async function measure(name: string, memories: number, work: () => Promise<void>): Promise<void> {
  const cpu = process.cpuUsage();
  const gc = gcMs;
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  const perMemoryUs = (used.user + used.system) / memories;
  console.log(
    `${name.padEnd(22)} ${perMemoryUs.toFixed(1).padStart(7)} µs CPU/memory, GC ${(((gcMs - gc) * 1000) / memories).toFixed(1).padStart(6)} µs/memory, wall ${(performance.now() - started).toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  const service = new MemoryService({
    store,
    embedder: new WordVectorEmbedder(),
    clock: new SystemClock(),
    hasher: new NodeTextHasher(),
  });
  await service.init();
  for (let round = 1; round <= ROUNDS; round += 1) {
    // The bodies are made before each phase: the load generator's work is not measured.
    // (The corpus's bodies are valid remember inputs; `type` is typed there as a plain string.)
    const singles = Array.from({ length: SINGLE }, () => memoryBody(next++) as RememberInput);
    await measure(`round ${round}: single`, SINGLE, async () => {
      let i = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (i < SINGLE) await service.remember(singles[i++] as RememberInput);
        }),
      );
    });
    const batches = Array.from({ length: BATCHES }, () =>
      Array.from({ length: BATCH }, () => memoryBody(next++) as RememberInput),
    );
    await measure(`round ${round}: batch`, BATCHES * BATCH, async () => {
      let b = 0;
      await Promise.all(
        Array.from({ length: 2 }, async () => {
          while (b < BATCHES) {
            await service.rememberBatch({ memories: batches[b++] as RememberInput[] });
          }
        }),
      );
    });
  }
  console.log(`${next} memories in the engine at the end`);
}

await main();
