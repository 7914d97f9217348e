/**
 * Load benchmark of the memory service over HTTP: starts `node dist/shells/memsvc/cli/memsvc.js serve`
 * with the embedded defaults (embedded Chroma, local embedder) in a temp dir, then measures what
 * the memory-engine issue's table asks for: remember one memory per request, remember through
 * the batch endpoint (the rest of the N memories, 1,000 per request), search and recall with and
 * without a project, stats, the RSS of the service and of its Chroma, and the time from spawning
 * the service to its listening line (it listens once its engine is loaded) on a restart over the
 * loaded data. Every row also gives the CPU time the service and Chroma spent per request, and
 * the service's own share of it (from /proc, so a busy shared machine shows up as wall time, not
 * as CPU); a last line gives the service's main thread (its event loop) alone, per request or
 * memory (the rest of the service's CPU ran on its other threads: V8's garbage-collector and
 * compiler helpers, libuv's pool, worker threads).
 * Between the writes and the queries it waits until the write journal has drained into
 * Chroma (`memsvc_journal_pending_ids` 0) and prints how long that took.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memory-load.ts [--n 10000] [--per-request 2000] [--queries 1000]
 *     [--recall-queries 500] [--stats-queries 200] [--concurrency 8] [--data DIR] [--cpu-prof DIR]
 *     [--dims N] [--batch-concurrency 2]
 * `--postgres URL` (or `--postgres auto`: a throwaway server, see tests/support/postgres-server.ts)
 * runs the service on PostgreSQL instead of the embedded Chroma: writes are then committed, not
 * journaled, and the "Chroma" columns are PostgreSQL's processes. `--pg-statements` (with
 * `--postgres auto`) also prints, after each phase, the statements PostgreSQL ran per request or
 * memory (pg_stat_statements: calls and planning + execution time).
 * `--warmup N` (default 500) single remembers go first, unmeasured (part of the N memories), so
 * the table shows the service after V8 has compiled its hot paths, as the query phases' 100
 * warm-up searches do; `--warmup 0` measures from a cold start. `--batch-warmup N` (default 2)
 * batch requests likewise go before the measured batches (part of N; at least one is measured).
 * `--batch-concurrency N` (default 2) sets the batch requests in flight at once.
 * `--dims N` sets the local embedder's dimensions (`MEMSVC_EMBEDDER_LOCAL_DIMENSIONS`; default 1024).
 * `--data DIR` keeps the data directory (and loads only what it lacks). `--cpu-prof DIR` runs
 * the service with V8's CPU profiler (profiles written to DIR at exit). `--node-args "FLAGS"`
 * passes node or V8 flags to the service (e.g. `"--max-semi-space-size=4"`). Set BENCH_LOG=info
 * to see the service's log on stderr. After the table it prints the service's minor page faults
 * per request or memory of each phase (first writes to fresh pages, ~13 µs each on this VM).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MEMORY_LOAD_PROJECTS, memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";
import { postgresCpuMs, postmasterPid } from "./support/process-cpu.js";
import { pgStatements, STATEMENT_COUNTING_SETTINGS } from "./support/pg-statements.js";
import { startPostgresServer } from "../tests/support/postgres-server.js";
import { intOption } from "./support/int-option.js";
import { RawClient, httpPost } from "./support/raw-http-client.js";

const BIN = fileURLToPath(new URL("../dist/shells/memsvc/cli/memsvc.js", import.meta.url));

const N = intOption("n", 10_000);
const QUERIES = intOption("queries", 1_000);
const RECALL_QUERIES = intOption("recall-queries", Math.min(QUERIES, 500));
const STATS_QUERIES = intOption("stats-queries", 200);
/** Memories remembered one per request; the rest of N goes through the batch endpoint. */
const PER_REQUEST = intOption("per-request", 2_000);
/** Single remembers sent before the measured ones (part of N, not in the table): JIT warm-up. */
const WARMUP = intOption("warmup", 500, 0);
/** Batch requests sent before the measured ones (part of N, not in the table): JIT warm-up. */
const BATCH_WARMUP = intOption("batch-warmup", 2, 0);
const BATCH = 1_000;
const CONCURRENCY = intOption("concurrency", 8);
/** Batch requests in flight at once (each of BATCH memories). */
const BATCH_CONCURRENCY = intOption("batch-concurrency", 2);
const PROJECTS = MEMORY_LOAD_PROJECTS;

const random = seededRandom(42);
const { memoryBody, phrase } = memoryLoadCorpus(random);

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let port = 0;

let retries = 0;

/** POST with one retry when a kept-alive socket was closed under us (counted and reported). */
async function post(path: string, body: object): Promise<number> {
  try {
    return await postOnce(path, body);
  } catch (error) {
    const closed =
      (error as NodeJS.ErrnoException).code === "ECONNRESET" ||
      (error as Error).message.startsWith("the server closed the connection");
    if (!closed) throw error;
    retries++;
    return postOnce(path, body);
  }
}

/**
 * Idle keep-alive connections of the load generator. Raw sockets, not node:http's client: the
 * load generator shares the two cores with the service and PostgreSQL, and node:http's client
 * costs about as much CPU per request as the server it measures (see `RawClient`).
 */
const idleClients: RawClient[] = [];

async function postOnce(path: string, body: object): Promise<number> {
  const request = httpPost(port, path, Buffer.from(JSON.stringify(body)));
  const client = idleClients.pop() ?? (await RawClient.open(port));
  const started = performance.now();
  let status: number;
  try {
    status = await client.send(request);
  } catch (error) {
    client.close();
    throw error;
  }
  idleClients.push(client);
  if (status !== 200) throw new Error(`${path}: HTTP ${status}`);
  return performance.now() - started;
}

/** Ids acknowledged from the write journal and not yet in Chroma (`/metrics`; 0 without one). */
async function pendingWrites(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^memsvc_journal_pending_ids (\d+)/m.exec(text)?.[1] ?? 0);
}

/**
 * Waits until Chroma holds every acknowledged write, so the query phases do not share the two
 * cores with Chroma catching up; resolves with what was pending and how long it took.
 */
async function drainJournal(): Promise<{ pending: number; ms: number }> {
  const started = performance.now();
  const pending = await pendingWrites();
  while ((await pendingWrites()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  return { pending, ms: performance.now() - started };
}

async function stats(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/stats`);
  return ((await res.json()) as { total_memories: number }).total_memories;
}

/** GET with the kept-alive agent; resolves with the latency. */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`));
        else resolve(performance.now() - started);
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** CPU time (user + system) of a process so far, in ms, from /proc. */
function cpuMs(pid: number | string | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU time of a process's main thread (its event loop) so far, in ms, from /proc. */
function mainThreadCpuMs(pid: number | undefined): number {
  return pid === undefined ? 0 : cpuMs(`${pid}/task/${pid}`);
}

/** Minor page faults of a process so far (first writes to fresh pages), from /proc. */
function minorFaults(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
  } catch {
    return Number.NaN;
  }
}

/** The embedded Chroma: the service's child process. */
function childPid(pid: number): number | undefined {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/);
    return children[0] === undefined || children[0] === "" ? undefined : Number(children[0]);
  } catch {
    return undefined;
  }
}

/** Runs `count` jobs with `concurrency` workers; returns each job's latency and the wall time. */
async function run(count: number, job: (i: number) => Promise<number>, concurrency = CONCURRENCY) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) latencies.push(await job(next++));
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

interface Spawned {
  readonly child: ReturnType<typeof spawn>;
  readonly port: number;
  /** From spawn to the listening line (the engine is loaded by then). */
  readonly readyMs: number;
}

function spawnService(dir: string, env: NodeJS.ProcessEnv, profileDir?: string): Promise<Spawned> {
  const started = performance.now();
  const nodeArgs = profileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir];
  const extraAt = process.argv.indexOf("--node-args");
  if (extraAt !== -1)
    nodeArgs.push(...(process.argv[extraAt + 1] ?? "").split(" ").filter(Boolean));
  const child = spawn(process.execPath, [...nodeArgs, BIN, "serve"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise<Spawned>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /listening on http:\/\/\S+:(\d+)/.exec(out);
      if (match) resolve({ child, port: Number(match[1]), readyMs: performance.now() - started });
    });
    child.once("exit", (code) => reject(new Error(`memsvc exited with ${code} before listening`)));
  });
}

async function stopService(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--data");
  const kept = at === -1 ? undefined : process.argv[at + 1];
  const profAt = process.argv.indexOf("--cpu-prof");
  const profileDir = profAt === -1 ? undefined : process.argv[profAt + 1];
  const dir = kept ?? mkdtempSync(join(tmpdir(), "memsvc-bench-"));
  // The caller's MEMSVC_* settings must not leak into the measured service.
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith("MEMSVC_")),
    ),
    MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
    MEMSVC_LOG_LEVEL: process.env["BENCH_LOG"] ?? "warn",
  };
  const pgAt = process.argv.indexOf("--postgres");
  const countStatements = process.argv.includes("--pg-statements");
  const pgServer =
    pgAt !== -1 && process.argv[pgAt + 1] === "auto"
      ? await startPostgresServer(countStatements ? { settings: STATEMENT_COUNTING_SETTINGS } : {})
      : undefined;
  const pgUrl = pgServer?.url ?? (pgAt === -1 ? undefined : process.argv[pgAt + 1]);
  if (pgUrl !== undefined) {
    env["MEMSVC_VECTOR_STORE_PROVIDER"] = "postgres";
    env["MEMSVC_VECTOR_STORE_POSTGRES_URL"] = pgUrl;
  }
  const dimsAt = process.argv.indexOf("--dims");
  if (dimsAt !== -1) env["MEMSVC_EMBEDDER_LOCAL_DIMENSIONS"] = process.argv[dimsAt + 1];
  let service = await spawnService(dir, env, profileDir);
  const statements = countStatements && pgUrl !== undefined ? await pgStatements(pgUrl) : undefined;
  const stopAll = () => {
    if (service.child.exitCode === null) service.child.kill("SIGTERM");
  };
  process.once("exit", stopAll);
  const loadAtStart = loadavg();
  try {
    port = service.port;
    const pid = service.child.pid as number;
    // On PostgreSQL, the "Chroma" columns are the server's: the postmaster of the URL's port.
    const chroma =
      pgUrl === undefined ? childPid(pid) : postmasterPid(Number(new URL(pgUrl).port || 5432));
    const rssIdle = rssMb(pid);
    const chromaIdle = rssMb(chroma);
    console.log(
      `memsvc pid ${pid} (${pgUrl === undefined ? "Chroma" : "PostgreSQL"} pid ${chroma}) on port ${port}, ready after ${service.readyMs.toFixed(0)} ms; loadavg ${loadAtStart.map((x) => x.toFixed(2)).join(" ")}`,
    );

    const rows: string[][] = [];
    /** The load generator's own CPU per request by phase (not in the table's columns). */
    const clientCpu: string[] = [];
    /** Per measured phase: the service's minor page faults per unit (memory or request). */
    const faults: string[] = [];
    const mainThread: string[] = [];
    const fmt = (x: number) => x.toFixed(1);
    const row = (
      name: string,
      count: number,
      seconds: number,
      latencies: readonly number[],
      cpu: { service: number; chroma: number },
      unit = count,
    ) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      rows.push([
        name,
        String(count),
        fmt(unit / seconds),
        fmt(percentile(sorted, 50)),
        fmt(percentile(sorted, 95)),
        fmt(percentile(sorted, 99)),
        ((cpu.service + cpu.chroma) / count).toFixed(2),
        (cpu.service / count).toFixed(2),
      ]);
    };
    /** Runs a phase and adds its row with the CPU the service and Chroma spent in it. */
    const measure = async (
      name: string,
      count: number,
      job: (i: number) => Promise<number>,
      perRequest = 1,
      concurrency = CONCURRENCY,
    ) => {
      const serviceBefore = cpuMs(pid);
      const mainBefore = mainThreadCpuMs(pid);
      const faultsBefore = minorFaults(pid);
      const storeCpu = () => (pgUrl === undefined ? cpuMs(chroma) : postgresCpuMs(chroma));
      const chromaBefore = storeCpu();
      await statements?.reset();
      const clientBefore = process.cpuUsage();
      const result = await run(count, job, concurrency);
      const cpu = { service: cpuMs(pid) - serviceBefore, chroma: storeCpu() - chromaBefore };
      const client = process.cpuUsage(clientBefore);
      const label = name.split(" (")[0];
      clientCpu.push(`${label} ${((client.user + client.system) / 1000 / count).toFixed(2)}`);
      row(name, count, result.seconds, result.latencies, cpu, count * perRequest);
      const unit = perRequest === 1 ? "request" : "memory";
      faults.push(
        `${label}: ${((minorFaults(pid) - faultsBefore) / (count * perRequest)).toFixed(2)} a ${unit}`,
      );
      mainThread.push(
        `${label} ${((mainThreadCpuMs(pid) - mainBefore) / (count * perRequest)).toFixed(3)}`,
      );
      await statements?.print(name, count * perRequest);
    };

    const stored = await stats();
    // Contents are deterministic by index, so a kept store resumes where an earlier run stopped.
    // The first remembers warm the service up (V8 compiles its hot paths on other threads for
    // the first ~2 s), as the query phases' warm-ups do; they are part of N.
    const warm = Math.min(WARMUP, Math.max(0, N - stored - PER_REQUEST));
    if (warm > 0) await run(warm, (i) => post("/v1/remember", memoryBody(stored + i)));
    const single = Math.min(PER_REQUEST, Math.max(0, N - stored - warm));
    if (single > 0) {
      await measure("remember (1 per request)", single, (i) =>
        post("/v1/remember", memoryBody(stored + warm + i)),
      );
    }
    const rest = Math.max(0, N - stored - warm - single);
    // The batch path's own warm-up: its first requests run code the single ones never did.
    const warmBatches = Math.min(BATCH_WARMUP, Math.floor(rest / BATCH) - 1);
    const batchBody = (first: number, count: number) => ({
      memories: Array.from({ length: count }, (_, k) => memoryBody(first + k)),
    });
    const batchFrom = stored + warm + single;
    if (warmBatches > 0) {
      await run(
        warmBatches,
        (r) => post("/v1/remember/batch", batchBody(batchFrom + r * BATCH, BATCH)),
        BATCH_CONCURRENCY,
      );
    }
    const batched = rest - Math.max(0, warmBatches) * BATCH;
    if (batched > 0) {
      const from = batchFrom + Math.max(0, warmBatches) * BATCH;
      const requests = Math.ceil(batched / BATCH);
      await measure(
        `remember/batch (${BATCH} per request; req/s column = memories/s)`,
        requests,
        (r) =>
          post(
            "/v1/remember/batch",
            batchBody(from + r * BATCH, Math.min(BATCH, batched - r * BATCH)),
          ),
        BATCH,
        BATCH_CONCURRENCY,
      );
    }
    const drained = await drainJournal();
    const rssLoaded = rssMb(pid);
    const chromaLoaded = rssMb(chroma);
    const queries = Array.from({ length: QUERIES }, () => phrase(3 + Math.floor(random() * 4)));
    const project = (i: number) => `project-${i % PROJECTS}`;
    const phases: [string, number, (i: number) => Promise<number>][] = [
      ["search", QUERIES, (i) => post("/v1/search", { message: queries[i] as string })],
      [
        "search + project",
        QUERIES,
        (i) => post("/v1/search", { message: queries[i] as string, project: project(i) }),
      ],
      ["recall", RECALL_QUERIES, (i) => post("/v1/recall", { message: queries[i] as string })],
      [
        "recall + project",
        RECALL_QUERIES,
        (i) => post("/v1/recall", { message: queries[i] as string, project: project(i) }),
      ],
      ["stats", STATS_QUERIES, () => get("/v1/stats")],
    ];
    let rssPeak = rssLoaded;
    let chromaPeak = chromaLoaded;
    for (const [name, count, job] of phases) {
      await run(Math.min(100, QUERIES), (i) =>
        post("/v1/search", { message: queries[i] as string }),
      ); // warm-up
      await measure(name, count, job);
      rssPeak = Math.max(rssPeak, rssMb(pid));
      chromaPeak = Math.max(chromaPeak, rssMb(chroma));
    }
    const total = await stats();

    // Startup to ready over the loaded store: a restart on the same data.
    agent.destroy();
    for (const client of idleClients.splice(0)) client.close();
    await stopService(service.child);
    service = await spawnService(dir, env);
    port = service.port;
    const restartRss = rssMb(service.child.pid);
    const restartChromaRss = rssMb(
      pgUrl === undefined ? childPid(service.child.pid as number) : chroma,
    );
    // Labels: the store's processes are Chroma's, or the PostgreSQL server's with `--postgres`.
    const store = pgUrl === undefined ? "Chroma" : "PostgreSQL";

    const header = [
      "operation",
      "requests",
      "req/s",
      "p50 ms",
      "p95 ms",
      "p99 ms",
      "CPU ms/req",
      "of it service",
    ];
    const widths = header.map((h, i) =>
      Math.max(h.length, ...rows.map((r) => (r[i] as string).length)),
    );
    const line = (cells: string[]) =>
      `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(" | ")} |`;
    console.log();
    console.log(line(header));
    console.log(
      `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`,
    );
    for (const r of rows) console.log(line(r));
    console.log(
      `\nload generator CPU ms/request (this process, on the same cores): ${clientCpu.join(", ")}`,
    );
    console.log(`service minor page faults: ${faults.join("; ")}`);
    console.log(
      `service main thread (event loop) CPU ms per request or memory: ${mainThread.join(", ")}`,
    );
    console.log();
    console.log(
      `RSS (VmRSS) service + ${store}: idle ${fmt(rssIdle)} + ${fmt(chromaIdle)} MB, after load ${fmt(rssLoaded)} + ${fmt(chromaLoaded)} MB, peak during queries ${fmt(rssPeak)} + ${fmt(chromaPeak)} = ${fmt(rssPeak + chromaPeak)} MB`,
    );
    console.log(
      `restart over ${total} memories: spawn to listening (engine loaded) ${service.readyMs.toFixed(0)} ms; RSS after restart ${fmt(restartRss)} + ${fmt(restartChromaRss)} MB`,
    );
    if (pgUrl === undefined) {
      console.log(
        `write journal: ${drained.pending} ids not yet in Chroma after the last write; Chroma had them ${drained.ms.toFixed(0)} ms later (the queries start then)`,
      );
    } else console.log("every write committed to PostgreSQL before it was answered (no journal)");
    if (retries > 0)
      console.log(`${retries} request(s) retried after ECONNRESET on a reused socket`);
    console.log(
      `concurrency ${CONCURRENCY} keep-alive clients (batch: ${BATCH_CONCURRENCY}); ${WARMUP} single remembers and ${BATCH_WARMUP} batches of warm-up before the table's; ${N} memories over ${PROJECTS} projects (50% project, 20% permanent, 20% session, 10% ttl); loadavg at start ${loadAtStart.map((x) => x.toFixed(2)).join(" ")}, at end ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await statements?.close();
    agent.destroy();
    for (const client of idleClients.splice(0)) client.close();
    await stopService(service.child);
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
    await pgServer?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
