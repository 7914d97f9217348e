/**
 * Throughput of `POST /v1/import` (issue 26), to choose its limits: starts `node
 * dist/shells/memsvc/cli/memsvc.js serve` with the embedded defaults (embedded Chroma, local
 * word-vector embedder) in a temp dir and imports N distinct lines without vectors (each one
 * embedded) in one request, then the same memories exported with vectors into a fresh service
 * (no embedding), and prints lines/s for each, the time a maximal import (`MAX_IMPORT_LINES`)
 * would take at that rate against Node's 300 s request timeout, and the service's CPU for a body
 * of blank lines. Figures from a shared machine: compare, do not promise.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memsvc-import.ts [--n 10000] [--blank-mb 64]
 */
import { loadavg } from "node:os";
import { readFileSync } from "node:fs";
import { cleanupMemsvc, startMemsvc, type MemsvcProcess } from "../tests/support/spawn-memsvc.js";
import { MAX_IMPORT_LINES, MAX_IMPORT_MS } from "../shells/memsvc/http/memory-ndjson-routes.js";
import { seededRandom } from "./support/seeded-random.js";
import { intOption } from "./support/int-option.js";

const N = intOption("n", 10_000);
const BLANK_MB = intOption("blank-mb", 64);

const random = seededRandom(26);
const WORDS = (
  "deploy release build staging production database cache queue worker gateway token session " +
  "billing invoice payment customer order schema migration index query latency timeout retry " +
  "alert metric dashboard trace service cluster container secret config flag feature rollout"
).split(" ");
const phrase = (n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");

/** CPU seconds (user + system) the process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function importBody(svc: MemsvcProcess, body: string | Uint8Array) {
  const started = performance.now();
  const cpu = cpuSeconds(svc.child.pid as number);
  const res = await fetch(`${svc.baseUrl}/v1/import`, {
    method: "POST",
    headers: { "Content-Type": "application/x-ndjson" },
    body,
  });
  const answer = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    answer,
    seconds: (performance.now() - started) / 1000,
    cpu: cpuSeconds(svc.child.pid as number) - cpu,
  };
}

console.log(
  `import of ${N} lines (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")})`,
);
const lines = Array.from(
  { length: N },
  (_, i) =>
    `${JSON.stringify({ content: `${phrase(12)} #${i}`, scope: "permanent", tags: ["t"] })}\n`,
).join("");
try {
  const first = await startMemsvc();
  const plain = await importBody(first, lines);
  const rate = N / plain.seconds;
  console.log(
    `without vectors: ${plain.status} ${JSON.stringify({ imported: plain.answer["imported"] })} in ${plain.seconds.toFixed(1)} s = ${rate.toFixed(0)} lines/s (service CPU ${plain.cpu.toFixed(1)} s)`,
  );
  const exported = await (await fetch(`${first.baseUrl}/v1/export?vectors=true`)).text();
  const blank = new Uint8Array(BLANK_MB * 1024 * 1024).fill(0x0a);
  const blanks = await importBody(first, blank);
  console.log(
    `${BLANK_MB} MiB of blank lines: ${blanks.status} in ${blanks.seconds.toFixed(2)} s, service CPU ${blanks.cpu.toFixed(2)} s ${JSON.stringify(blanks.answer["incomplete"] ?? "complete")}`,
  );
  await first.stop();
  const second = await startMemsvc();
  const withVectors = await importBody(second, exported);
  const vectorRate = N / withVectors.seconds;
  console.log(
    `with vectors of the same embedder: ${withVectors.status} in ${withVectors.seconds.toFixed(1)} s = ${vectorRate.toFixed(0)} lines/s (service CPU ${withVectors.cpu.toFixed(1)} s)`,
  );
  await second.stop();
  console.log(
    `a maximal import (${MAX_IMPORT_LINES} lines) at these rates: ${(MAX_IMPORT_LINES / rate).toFixed(0)} s without vectors, ${(MAX_IMPORT_LINES / vectorRate).toFixed(0)} s with; the time limit is ${MAX_IMPORT_MS / 1000} s, Node's request timeout 300 s`,
  );
} finally {
  await cleanupMemsvc();
}
