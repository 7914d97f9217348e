/**
 * Cost of listing in the core: N synthetic memories in an engine, then pages of `limit` walked
 * with the cursor, unfiltered and with a one-project-in-twenty filter plus a content substring.
 * Prints per-page latency p50/p95/p99 (wall) and CPU per page, with the load average: a loaded
 * machine's latencies are not a goal.
 *
 * Run:
 *   npx tsx bench/memory-list.ts [--n 100000] [--limit 50] [--pages 200]
 */
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { CosineRetrievalIndex, MemoryEngine } from "../core/memory/index.js";
import { compileListFilter } from "../core/memory/engine/list-filter.js";
import { listPosition, takePage } from "../core/memory/engine/list-page.js";
import type { Memory } from "../core/memory/model/types.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    limit: { type: "string", default: "50" },
    pages: { type: "string", default: "200" },
  },
});
const N = Number(values.n);
const LIMIT = Number(values.limit);
const PAGES = Number(values.pages);

const engine = new MemoryEngine(new CosineRetrievalIndex(), {
  ttlHours: 720,
  sessionIdleHours: 24,
});
const t0 = Date.parse("2026-11-01T00:00:00.000Z");
for (let i = 0; i < N; i += 1) {
  const at = new Date(t0 + Math.floor(i / 10) * 1000).toISOString();
  const memory: Memory = {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    content: `memory number ${i} about ${i % 7 === 0 ? "deploys" : "billing"}`,
    type: "fact",
    scope: "permanent",
    tags: i % 3 === 0 ? ["ops"] : [],
    project: `p${i % 20}`,
    confidence: 1,
    created_at: at,
    updated_at: at,
    last_accessed: at,
    access_count: 0,
    expires_at: null,
  };
  engine.add(memory, String(i), [1, 0]);
}
const nowMs = t0 + N * 1000;

function walk(label: string, accept: (m: Memory) => boolean): void {
  const wall: number[] = [];
  const cpuStart = process.cpuUsage();
  let cursor: string | undefined;
  let pages = 0;
  for (; pages < PAGES; pages += 1) {
    const started = performance.now();
    // What `listMemories` does: the engine's creation order from the cursor, filtered and taken.
    const ordered = engine.liveInOrder(nowMs, "newest", listPosition(cursor, "newest"));
    const page = takePage(ordered, { limit: LIMIT, order: "newest", accept });
    wall.push(performance.now() - started);
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  const cpu = process.cpuUsage(cpuStart);
  wall.sort((a, b) => a - b);
  const at = (q: number) =>
    (wall[Math.min(wall.length - 1, Math.floor(q * wall.length))] ?? 0).toFixed(2);
  const cpuPerPage = ((cpu.user + cpu.system) / 1000 / wall.length).toFixed(2);
  console.log(
    `${label}: ${wall.length} pages of ${LIMIT}, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, CPU ${cpuPerPage} ms/page`,
  );
}

console.log(
  `memory-list: ${N} memories, ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
walk("unfiltered", () => true);
walk("project p3 + q=deploys", compileListFilter({ project: "p3", q: "deploys" }));
