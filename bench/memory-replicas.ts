/**
 * Replicas of the memory service on one PostgreSQL database, over HTTP: starts R replicas
 * (`node dist/shells/memsvc/cli/memsvc.js serve` with `vector_store.provider: postgres`), loads
 * N memories through the first one's batch endpoint, then measures, for R = 1, 2 and 3 replicas
 * (or the counts given):
 *
 * - **read CPU**: searches and recalls spread round-robin over the replicas by 8 keep-alive
 *   clients; the CPU each replica process spent per request (from /proc), and PostgreSQL's;
 * - **replication lag**: a writer remembers on the first replica at a steady rate while a reader
 *   polls another replica for the new id every 2 ms; lag = first 200 on the other replica minus
 *   the writer's 200 (p50, p99 over all writes);
 *
 * and prints the machine's load average beside them.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memory-replicas.ts [--postgres URL] [--n 10000] [--replicas 1,2,3]
 *     [--queries 1000] [--writes 500] [--write-rate 100]
 * Without `--postgres` it starts a throwaway PostgreSQL server (Debian's binaries, see
 * tests/support/postgres-server.ts) in a temp directory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";
import { postgresCpuMs, postmasterPid } from "./support/process-cpu.js";
import { startPostgresServer } from "../tests/support/postgres-server.js";

const BIN = fileURLToPath(new URL("../dist/shells/memsvc/cli/memsvc.js", import.meta.url));

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}
function count(name: string, fallback: number): number {
  const text = option(name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} expects a positive integer`);
  return value;
}

const N = count("n", 10_000);
const QUERIES = count("queries", 1_000);
const WRITES = count("writes", 500);
const WRITE_RATE = count("write-rate", 100);
const REPLICA_COUNTS = (option("replicas") ?? "1,2,3").split(",").map(Number);
const CONCURRENCY = 8;

const random = seededRandom(7);
const { memoryBody, phrase } = memoryLoadCorpus(random);
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

interface Replica {
  readonly child: ChildProcess;
  readonly port: number;
}

function post(port: number, path: string, body: object): Promise<{ ms: number; json: unknown }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode} ${text}`));
          else resolve({ ms: performance.now() - started, json: JSON.parse(text) as unknown });
        });
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

function status(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

/** utime + stime of a process in ms (0 when it is gone). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function startReplica(url: string): Promise<Replica> {
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("MEMSVC_"))),
    MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
    MEMSVC_LOG_LEVEL: process.env["BENCH_LOG"] ?? "warn",
    MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
    MEMSVC_VECTOR_STORE_POSTGRES_URL: url,
    MEMSVC_UI_ENABLED: "false",
  };
  const child = spawn(process.execPath, [BIN, "serve"], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /listening on http:\/\/\S+:(\d+)/.exec(out);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.once("exit", (code) => reject(new Error(`memsvc exited with ${code} before listening`)));
  });
}

async function stop(replica: Replica): Promise<void> {
  if (replica.child.exitCode !== null) return;
  const exited = new Promise((resolve) => replica.child.once("exit", resolve));
  replica.child.kill("SIGTERM");
  await exited;
}

async function pool(total: number, job: (i: number) => Promise<number>): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) latencies.push(await job(next++));
    }),
  );
  return latencies.sort((a, b) => a - b);
}

function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const given = option("postgres");
  const server = given === undefined ? await startPostgresServer() : undefined;
  const url = given ?? (server as { url: string }).url;
  // This server's processes only (other PostgreSQL servers on the machine are not counted).
  const postmaster = postmasterPid(Number(new URL(url).port || 5432));
  const replicas: Replica[] = [];
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
  try {
    replicas.push(await startReplica(url));
    const first = replicas[0] as Replica;
    const started = performance.now();
    for (let from = 0; from < N; from += 1000) {
      await post(first.port, "/v1/remember/batch", {
        memories: Array.from({ length: Math.min(1000, N - from) }, (_, k) => memoryBody(from + k)),
      });
    }
    console.log(
      `loaded ${N} memories through one replica in ${((performance.now() - started) / 1000).toFixed(1)} s; loadavg ${load()}`,
    );
    const queries = Array.from({ length: QUERIES }, () => phrase(3 + Math.floor(random() * 4)));
    console.log();
    console.log(
      "| replicas | reads | search p95 ms | recall p95 ms | replica CPU ms/read | PostgreSQL CPU ms/read | lag p50 ms | lag p99 ms | loadavg |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (const wanted of REPLICA_COUNTS) {
      while (replicas.length < wanted) replicas.push(await startReplica(url));
      while (replicas.length > wanted) await stop(replicas.pop() as Replica);
      const at = (i: number) => replicas[i % replicas.length] as Replica;
      // Warm-up, then reads spread round-robin.
      await pool(
        100,
        async (i) => (await post(at(i).port, "/v1/search", { message: queries[i] as string })).ms,
      );
      const cpuBefore = replicas.map((r) => cpuMs(r.child.pid));
      const pgBefore = postgresCpuMs(postmaster);
      const search = await pool(
        QUERIES,
        async (i) => (await post(at(i).port, "/v1/search", { message: queries[i] as string })).ms,
      );
      const recall = await pool(
        QUERIES,
        async (i) => (await post(at(i).port, "/v1/recall", { message: queries[i] as string })).ms,
      );
      const replicaCpu = replicas.reduce(
        (sum, r, i) => sum + cpuMs(r.child.pid) - (cpuBefore[i] ?? 0),
        0,
      );
      const pgCpu = postgresCpuMs(postmaster) - pgBefore;
      const lags = wanted === 1 ? [] : await replicationLag(replicas);
      console.log(
        `| ${wanted} | ${2 * QUERIES} | ${pct(search, 95).toFixed(1)} | ${pct(recall, 95).toFixed(1)} | ${(replicaCpu / (2 * QUERIES)).toFixed(2)} | ${(pgCpu / (2 * QUERIES)).toFixed(2)} | ${wanted === 1 ? "-" : pct(lags, 50).toFixed(1)} | ${wanted === 1 ? "-" : pct(lags, 99).toFixed(1)} | ${load()} |`,
      );
    }
    console.log();
    console.log(
      `${CONCURRENCY} keep-alive clients; lag: ${WRITES} remembers at ${WRITE_RATE}/s on replica 1, polled every 2 ms on the last replica`,
    );
  } finally {
    agent.destroy();
    for (const replica of replicas) await stop(replica);
    await server?.stop();
  }
}

/** Remembers on the first replica at a steady rate; for each, ms until the last one has it. */
async function replicationLag(replicas: readonly Replica[]): Promise<number[]> {
  const writer = replicas[0] as Replica;
  const reader = replicas[replicas.length - 1] as Replica;
  const lags: number[] = [];
  const pending: Promise<void>[] = [];
  const interval = 1000 / WRITE_RATE;
  const begin = performance.now();
  for (let i = 0; i < WRITES; i += 1) {
    const due = begin + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const body = { content: `replication probe ${i} ${Date.now()} ${random()}`, type: "fact" };
    const { json } = await post(writer.port, "/v1/remember", body);
    const acknowledged = performance.now();
    const id = (json as { id: string }).id;
    pending.push(
      (async () => {
        while ((await status(reader.port, `/v1/memories/${id}`)) !== 200) await sleep(2);
        lags.push(performance.now() - acknowledged);
      })(),
    );
  }
  await Promise.all(pending);
  return lags.sort((a, b) => a - b);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
