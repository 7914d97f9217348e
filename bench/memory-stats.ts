/**
 * Cost of `GET /v1/stats` in the core: N synthetic memories (20 projects, 50 tags) in an
 * engine, then stats answers without parameters (the seed's), with `top` (counts by project and
 * tag, remembered between changes) and with a filter (one pass over the held memories), and the
 * first unfiltered answer after a write (the pass that refills the cache). Prints per-answer
 * wall p50/p95 and CPU, with the load average: a loaded machine's latencies are not a goal.
 *
 * Run:
 *   npx tsx bench/memory-stats.ts [--n 100000] [--runs 50]
 */
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { CosineRetrievalIndex, MemoryEngine } from "../core/memory/index.js";
import { compileListFilter } from "../core/memory/engine/list-filter.js";
import type { Memory } from "../core/memory/model/types.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    runs: { type: "string", default: "50" },
  },
});
const N = Number(values.n);
const RUNS = Number(values.runs);

const engine = new MemoryEngine(new CosineRetrievalIndex(), {
  ttlHours: 720,
  sessionIdleHours: 24,
});
const t0 = Date.parse("2026-11-01T00:00:00.000Z");
const memoryAt = (i: number): Memory => {
  const at = new Date(t0 + i * 1000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    content: `memory number ${i} about ${i % 7 === 0 ? "deploys" : "billing"}`,
    type: "fact",
    scope: "permanent",
    tags: [`t${i % 50}`, `t${(i * 7) % 50}`],
    project: `p${i % 20}`,
    confidence: 1,
    created_at: at,
    updated_at: at,
    last_accessed: at,
    access_count: 0,
    expires_at: null,
  };
};
for (let i = 0; i < N; i += 1) engine.add(memoryAt(i), String(i), [1, 0]);
const nowMs = t0 + N * 1000;

function measure(label: string, answer: (run: number) => unknown): void {
  const wall: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    answer(run);
    wall.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuStart);
  wall.sort((a, b) => a - b);
  const at = (q: number) =>
    (wall[Math.min(wall.length - 1, Math.floor(q * wall.length))] ?? 0).toFixed(3);
  const cpuPer = ((cpu.user + cpu.system) / 1000 / RUNS).toFixed(3);
  console.log(`${label}: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, CPU ${cpuPer} ms/answer`);
}

console.log(
  `memory-stats: ${N} memories, ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
measure("no parameter (cached)", () => engine.stats(nowMs));
measure("top, no filter (cached)", () => engine.counts(nowMs));
const project = compileListFilter({ project: "p3" });
measure("filter project=p3", () => engine.counts(nowMs, project));
const text = compileListFilter({ q: "deploys", tags: ["t7"] });
measure("filter q=deploys tag=t7", () => engine.counts(nowMs, text));
measure("no parameter after a write (recount)", (run) => {
  engine.update({ ...memoryAt(run), confidence: 0.5 });
  return engine.stats(nowMs);
});
measure("top after a write (recount)", (run) => {
  engine.update({ ...memoryAt(run), confidence: 0.5 });
  return engine.counts(nowMs);
});
