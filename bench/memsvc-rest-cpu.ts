/**
 * CPU per request of the memory REST shell on its JSON routes, through `app.request()` (no
 * socket) over the in-memory fakes: body reading, the route validator, the core call and the
 * JSON answer. For comparing shell changes (issue 9 put a validator in front of the core), not a
 * latency goal. Prints the load average: figures from a loaded machine are comparisons only.
 *
 * Run:
 *   npx tsx bench/memsvc-rest-cpu.ts [--rounds 3000]
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { createMemoryApp } from "../shells/memsvc/http/index.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3000" } } });
const rounds = Number(values.rounds);

const memory = new MemoryService({
  store: new InMemoryVectorStore(),
  embedder: new FakeEmbedder(),
  clock: new ManualClock("2026-11-21T10:00:00.000Z"),
});
await memory.init();
const app = createMemoryApp({ memory, version: "bench" });
const post = (body: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body,
});
for (let i = 0; i < 200; i++) {
  const content = `memory number ${i} about deploys and tests`;
  await app.request("/v1/remember", post(JSON.stringify({ content, tags: ["a"] })));
}

const cases: [string, string, number][] = [
  ["/v1/search", JSON.stringify({ message: "deploys tests", limit: 5 }), rounds],
  ["/v1/recall", JSON.stringify({ message: "deploys tests" }), rounds],
  ["/v1/search", JSON.stringify({ message: "x".repeat(200_000) }), Math.ceil(rounds / 15)],
];
console.log(
  `CPU per request over ${rounds} rounds (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")})`,
);
for (const [path, body, n] of cases) {
  for (let i = 0; i < 100; i++) await app.request(path, post(body));
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await app.request(path, post(body));
  const used = process.cpuUsage(start);
  const micros = (used.user + used.system) / n;
  console.log(
    `  POST ${path.padEnd(11)} body ${String(body.length).padStart(6)} B  ${micros.toFixed(1).padStart(8)} µs`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
