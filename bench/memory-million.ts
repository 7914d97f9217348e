/**
 * One replica over 1,000,000 memories on PostgreSQL (issue 21's scale goals): starts a throwaway
 * PostgreSQL server (tests/support/postgres-server.ts) or uses `--postgres URL`, starts the built
 * service on it (which applies the schema and binds its embedder's vector space), measures the
 * service's own write rate through `POST /v1/remember/batch` over `--batch-n` memories, then
 * writes the rest of the N rows straight into `memsvc_memories` (multi-row INSERTs from the load
 * benchmark's corpus with random vectors of the service's dimensions: going through the API
 * would take N / that rate), restarts the service and prints: spawn to listening, spawn to
 * `/readyz` 200 (every memory loaded), the service's RSS and its growth per memory, and search
 * and recall latency (p50/p95 over `--queries` each, half of them with a project). Then it stops
 * the service (which saves its engine snapshot: the shutdown time is printed), starts it again
 * and prints the same for the restart from the snapshot plus the change feed.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memory-million.ts [--n 1000000] [--batch-n 20000] [--queries 200]
 *     [--postgres auto|URL] [--cpu-prof DIR (the restarted services' profiles, written at exit:
 *     the full load's in DIR, the snapshot restart's in DIR/snapshot)] [--keep-snapshot DIR (a
 *     copy of the saved snapshot file, for bench/snapshot-restore.ts)]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { copyFileSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { encodeVectors } from "../adapters/postgres/postgres-vectors.js";
import { REPLICA_SNAPSHOT_FILE } from "../adapters/system/file-replica-snapshots.js";
import { DEFAULT_MEMORY_SERVICE_OPTIONS } from "../core/memory/index.js";
import { normaliseContent } from "../core/memory/model/content-key.js";
import { encodeMemoryMetadata } from "../core/memory/model/memory-metadata.js";
import { newMemory } from "../core/memory/model/new-memory.js";
import { parseInput } from "../core/memory/model/parse-input.js";
import { rememberInputSchema } from "../core/memory/model/schemas.js";
import { startPostgresServer } from "../tests/support/postgres-server.js";
import { MEMORY_LOAD_PROJECTS, memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const BIN = fileURLToPath(new URL("../dist/shells/memsvc/cli/memsvc.js", import.meta.url));
const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000000" },
    "batch-n": { type: "string", default: "20000" },
    queries: { type: "string", default: "200" },
    postgres: { type: "string", default: "auto" },
    "cpu-prof": { type: "string" },
    "keep-snapshot": { type: "string" },
  },
});
const N = Number(values.n);
const BATCH_N = Math.min(N, Number(values["batch-n"]));
const QUERIES = Number(values.queries);
/** Rows per INSERT of the direct write. */
const ROWS = 5_000;

const random = seededRandom(42);
const corpus = memoryLoadCorpus(random);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Service {
  readonly child: ChildProcess;
  readonly base: string;
  readonly listeningMs: number;
  readonly readyMs: number;
}

/** Spawns the service; resolves once `/readyz` answers 200 (every memory loaded). */
async function startService(env: NodeJS.ProcessEnv, profileDir?: string): Promise<Service> {
  const started = performance.now();
  const profile = profileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir];
  const child = spawn(process.execPath, [...profile, BIN, "serve"], {
    cwd: mkdtempSync(join(tmpdir(), "memsvc-million-")),
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /listening on http:\/\/\S+:(\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`memsvc exited with ${code} before listening`)));
  });
  const listeningMs = performance.now() - started;
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    const status = await fetch(`${base}/readyz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, base, listeningMs, readyMs: performance.now() - started };
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function post(url: string, body: object): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - started;
}

/** The service's own write path: batches of 1,000, four requests in flight. */
async function rememberThroughApi(base: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < BATCH_N) {
      const from = next;
      next = Math.min(BATCH_N, next + 1000);
      const memories = [];
      for (let i = from; i < next; i += 1) memories.push(corpus.memoryBody(i));
      await post(`${base}/v1/remember/batch`, { memories });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return performance.now() - started;
}

/** Rows `from` .. `to` - 1 of the corpus straight into the table, as the store lays them out. */
async function insertRows(client: pg.Client, from: number, to: number, dims: number) {
  // Created over the last N ms: recent enough that no session or ttl memory has expired yet.
  const nowMs = Date.now();
  const ids: string[] = [];
  const documents: string[] = [];
  const metadata: string[] = [];
  const vectors: number[][] = [];
  for (let i = from; i < to; i += 1) {
    const body = parseInput(rememberInputSchema, corpus.memoryBody(i));
    const memory = newMemory(body, randomUUID(), nowMs - (N - i), DEFAULT_MEMORY_SERVICE_OPTIONS);
    const hash = createHash("sha256").update(normaliseContent(memory.content)).digest("hex");
    ids.push(memory.id);
    documents.push(memory.content);
    metadata.push(JSON.stringify(encodeMemoryMetadata(memory, hash)));
    const vector = Array.from({ length: dims }, () => random() - 0.5);
    const norm = Math.hypot(...vector);
    vectors.push(vector.map((v) => v / norm));
  }
  const { bytes, starts, lengths } = encodeVectors(vectors);
  await client.query(
    `INSERT INTO memsvc_memories (id, document, metadata, vector)
     SELECT id, document, metadata::jsonb, substring($4::bytea from s for l)
     FROM unnest($1::text[], $2::text[], $3::text[], $5::int[], $6::int[]) AS t(id, document, metadata, s, l)`,
    [ids, documents, metadata, bytes, starts, lengths],
  );
}

function percentiles(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

/** Where the restart from the snapshot writes its CPU profile (with `--cpu-prof`). */
function snapshotProfileDir(): string | undefined {
  const dir = values["cpu-prof"];
  return dir === undefined ? undefined : join(dir, "snapshot");
}

/** Prints a restarted service's start time, CPU, RSS and query latency. */
async function measureRestart(service: Service, what: string, idleRss: number): Promise<void> {
  const pid = service.child.pid as number;
  const loadedRss = rssMb(pid);
  const startCpu = cpuSeconds(pid);
  console.log(
    `${what} over ${N}: spawn to listening ${seconds(service.listeningMs)} s, to /readyz 200 (engine loaded) ${seconds(service.readyMs)} s, using ${startCpu.toFixed(1)} CPU s (${(N / startCpu).toFixed(0)} memories/CPU s); ` +
      `RSS ${loadedRss.toFixed(0)} MB (idle on an empty store ${idleRss.toFixed(0)} MB: ${(((loadedRss - idleRss) * 1048576) / N).toFixed(0)} B per memory)`,
  );
  const project = (i: number) =>
    i % 2 === 0 ? {} : { project: `project-${i % MEMORY_LOAD_PROJECTS}` };
  const search: number[] = [];
  const recall: number[] = [];
  for (let i = 0; i < QUERIES; i += 1) {
    search.push(
      await post(`${service.base}/v1/search`, { message: corpus.phrase(4), ...project(i) }),
    );
  }
  for (let i = 0; i < QUERIES; i += 1) {
    recall.push(
      await post(`${service.base}/v1/recall`, { message: corpus.phrase(4), ...project(i) }),
    );
  }
  console.log(
    `${what}: ${QUERIES} searches: ${percentiles(search)}; ${QUERIES} recalls: ${percentiles(recall)}; ` +
      `RSS after queries ${rssMb(pid).toFixed(0)} MB`,
  );
}

async function main(): Promise<void> {
  const server = values.postgres === "auto" ? await startPostgresServer() : undefined;
  const snapshotDir = mkdtempSync(join(tmpdir(), "memsvc-million-snapshot-"));
  const url = server === undefined ? values.postgres : await server.createDatabase("million");
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MEMSVC_"))),
    MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
    MEMSVC_LOG_LEVEL: process.env["BENCH_LOG"] ?? "warn",
    MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
    MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
    MEMSVC_VECTOR_STORE_POSTGRES_SNAPSHOT_DIR: snapshotDir,
  };
  const client = new pg.Client({ connectionString: url });
  let service: Service | undefined;
  try {
    service = await startService(env);
    const idleRss = rssMb(service.child.pid as number);
    const apiMs = await rememberThroughApi(service.base);
    const apiRate = BATCH_N / (apiMs / 1000);
    console.log(
      `through the API: ${BATCH_N} memories by remember/batch (1,000 a request, 4 in flight) in ${seconds(apiMs)} s: ${apiRate.toFixed(0)}/s committed` +
        (BATCH_N < N
          ? `; ${N} at that rate (extrapolated, not run): ${seconds((N / apiRate) * 1000)} s`
          : " (the whole load)"),
    );
    await stopService(service.child);
    await client.connect();
    const space = await client.query<{ dimensions: number }>(
      "SELECT dimensions FROM memsvc_vector_space",
    );
    const dims = space.rows[0]?.dimensions ?? 100;
    const insertStarted = performance.now();
    for (let from = BATCH_N; from < N; from += ROWS) {
      await insertRows(client, from, Math.min(N, from + ROWS), dims);
      if ((from - BATCH_N) % 100_000 < ROWS) {
        process.stderr.write(
          `${from + ROWS} rows, ${seconds(performance.now() - insertStarted)} s\n`,
        );
      }
    }
    await client.query("VACUUM ANALYZE memsvc_memories");
    // Rows written past the service are not in the change feed: the snapshot the first service
    // saved at its shutdown does not know them (docs/operations.md), so it goes.
    rmSync(snapshotDir, { recursive: true, force: true });
    const insertMs = performance.now() - insertStarted;
    const total = await client.query<{ n: string }>("SELECT count(*) AS n FROM memsvc_memories");
    console.log(
      `direct write of ${N - BATCH_N} rows (${dims} dimensions, ${ROWS} per INSERT, then VACUUM ANALYZE): ${seconds(insertMs)} s; table holds ${total.rows[0]?.n}`,
    );
    service = await startService(env, values["cpu-prof"]);
    await measureRestart(service, "restart (full load)", idleRss);
    const stopStarted = performance.now();
    await stopService(service.child);
    const file = join(snapshotDir, "replica-engines.snapshot");
    console.log(
      `stop (engine snapshot saved, ${(statSync(file).size / 1048576).toFixed(0)} MB): ${seconds(performance.now() - stopStarted)} s`,
    );
    if (values["keep-snapshot"] !== undefined) {
      copyFileSync(file, join(values["keep-snapshot"], REPLICA_SNAPSHOT_FILE));
    }
    service = await startService(env, snapshotProfileDir());
    await measureRestart(service, "restart from the snapshot", idleRss);
  } finally {
    if (service !== undefined) await stopService(service.child);
    await client.end().catch(() => undefined);
    await server?.stop();
    rmSync(snapshotDir, { recursive: true, force: true });
  }
}

await main();
