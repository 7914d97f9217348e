/**
 * CPU per request of the memory REST shell on its JSON routes, through `app.request()` (no
 * socket) over the in-memory fakes: body reading, the route validator, the core call and the
 * JSON answer. For comparing shell changes (issue 9 put a validator in front of the core), not a
 * latency goal. Then the hot routes over real HTTP, served by the Hono app alone and with the
 * fast path in front (what `memsvc serve` runs), client in the same process. Prints the load average: figures from a loaded machine are comparisons only.
 *
 * Run:
 *   npx tsx bench/memsvc-rest-cpu.ts [--rounds 3000]
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { MemoryService } from "../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../core/testing/index.js";
import { createMemoryApp, createMemoryListener } from "../shells/memsvc/http/index.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3000" } } });
const rounds = Number(values.rounds);

/** A service over the in-memory fakes holding the same 200 memories each time. */
async function seededMemory(): Promise<MemoryService> {
  const memory = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder: new FakeEmbedder(),
    clock: new ManualClock("2026-11-21T10:00:00.000Z"),
  });
  await memory.init();
  await memory.rememberBatch({
    memories: Array.from({ length: 200 }, (_, i) => ({
      content: `memory number ${i} about deploys and tests`,
      tags: ["a"],
    })),
  });
  return memory;
}

const app = createMemoryApp({ memory: await seededMemory(), version: "bench" });
const post = (body: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body,
});

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
// The same routes over real HTTP (loopback, keep-alive, CONCURRENCY requests in flight), served
// by the Hono app alone and by the listener `memsvc serve` runs (fast path in front). Client and
// server share this process, so the figures include the client's CPU (the same in both rows):
// compare the rows, do not read them as the service's own cost.
const CONCURRENCY = 8;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function postHttp(port: number, path: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        port,
        path,
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(path))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function overHttp(port: number, path: string, body: (i: number) => string, n: number) {
  let next = 0;
  const worker = async () => {
    while (next < n) await postHttp(port, path, body(next++));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const httpCases: [string, (i: number) => string, number][] = [
  ["/v1/search", () => JSON.stringify({ message: "deploys tests", limit: 5 }), rounds],
  ["/v1/recall", () => JSON.stringify({ message: "deploys tests" }), rounds],
  ["/v1/remember", (i) => JSON.stringify({ content: `note ${i} on the rollout` }), rounds],
];
console.log(`\nCPU per request over HTTP, ${CONCURRENCY} keep-alive clients in this process`);
for (const fastPath of [false, true]) {
  // A fresh service each time: the remembers of one row must not slow the next one's recall.
  const memory = await seededMemory();
  const server = createServer(createMemoryListener({ memory, version: "bench", fastPath }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  for (const [path, body, n] of httpCases) {
    await overHttp(port, path, body, 200);
    const start = process.cpuUsage();
    await overHttp(port, path, body, n);
    const used = process.cpuUsage(start);
    const micros = (used.user + used.system) / n;
    const by = fastPath ? "fast path + Hono" : "Hono alone";
    console.log(`  ${by.padEnd(16)} POST ${path.padEnd(13)} ${micros.toFixed(1).padStart(8)} µs`);
  }
  server.closeAllConnections();
  server.close();
}

console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
