/**
 * Load benchmark of the memory service over HTTP: starts `node dist/shells/cli/memsvc.js serve`
 * with the embedded defaults (embedded Chroma, local embedder) in a temp dir, loads N memories,
 * then measures recall and search latency with and without a project filter, and the service's
 * RSS (the Node process only, without Chroma). Prints a table.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memory-load.ts [--n 10000] [--queries 1000] [--recall-queries 200] [--concurrency 8]
 * `--data DIR` keeps the data directory (and skips loading when it already holds N memories).
 * Set BENCH_LOG=info to see the service's request log on stderr.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "./support/seeded-random.js";

const BIN = fileURLToPath(new URL("../dist/shells/cli/memsvc.js", import.meta.url));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} expects a positive integer`);
  return value;
}

const N = option("n", 10_000);
const QUERIES = option("queries", 1_000);
/** Recall writes access metadata for every memory it returns, so it is far slower: fewer runs. */
const RECALL_QUERIES = option("recall-queries", Math.min(QUERIES, 200));
const CONCURRENCY = option("concurrency", 8);
const PROJECTS = 20;

const random = seededRandom(42);
const WORDS = (
  "deploy release build test staging production database postgres redis cache queue worker " +
  "api gateway auth token session user account billing invoice payment refund customer order " +
  "schema migration index query latency timeout retry backoff error alert metric dashboard log " +
  "trace span service cluster node pod container image registry secret config flag feature " +
  "rollout rollback canary review merge branch commit pipeline runner artifact cost budget team " +
  "oncall incident postmortem runbook backup restore replica shard partition vacuum lock deadlock"
).split(" ");
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const phrase = (words: number) => Array.from({ length: words }, () => pick(WORDS)).join(" ");
const TYPES = ["rule", "fact", "episode", "procedure", "preference"];

function memoryBody(i: number): object {
  const kind = i % 10;
  const scope = kind < 5 ? "project" : kind < 7 ? "permanent" : kind < 9 ? "session" : "ttl";
  return {
    content: `${phrase(8 + (i % 12))} (note ${i})`,
    type: TYPES[i % TYPES.length],
    scope,
    project: scope === "project" ? `project-${i % PROJECTS}` : "",
    tags: [pick(WORDS), pick(WORDS)],
    confidence: 0.5 + (i % 50) / 100,
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let port = 0;

let retries = 0;

/** POST with one retry when a kept-alive socket was closed under us (counted and reported). */
async function post(path: string, body: object): Promise<number> {
  try {
    return await postOnce(path, body);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") throw error;
    retries++;
    return postOnce(path, body);
  }
}

function postOnce(path: string, body: object): Promise<number> {
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
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) },
      },
      (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

async function stats(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/stats`);
  return ((await res.json()) as { total_memories: number }).total_memories;
}

/** Runs `count` jobs with `CONCURRENCY` workers; returns each job's latency and the wall time. */
async function run(count: number, job: (i: number) => Promise<number>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) latencies.push(await job(next++));
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf("--data");
  const kept = at === -1 ? undefined : process.argv[at + 1];
  const dir = kept ?? mkdtempSync(join(tmpdir(), "memsvc-bench-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
    MEMSVC_LOG_LEVEL: process.env["BENCH_LOG"] ?? "warn",
  };
  for (const key of Object.keys(env))
    if (key.startsWith("MEMSVC_") && !["MEMSVC_API_LISTEN_ADDR", "MEMSVC_LOG_LEVEL"].includes(key))
      delete env[key];
  const child = spawn(process.execPath, [BIN, "serve"], {
    cwd: dir,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stopAll = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  process.once("exit", stopAll);
  try {
    port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const match = /listening on http:\/\/\S+:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once("exit", (code) =>
        reject(new Error(`memsvc exited with ${code} before listening`)),
      );
    });
    const pid = child.pid as number;
    const rssIdle = rssMb(pid);
    console.log(
      `memsvc pid ${pid} on port ${port}; loading ${N} memories with ${CONCURRENCY} clients…`,
    );

    const stored = await stats();
    // With --data and a store already holding N memories, measure queries only.
    // Contents are deterministic by index, so a kept store resumes where an earlier run stopped.
    const toLoad = Math.max(0, N - stored);
    const load =
      toLoad === 0
        ? undefined
        : await run(toLoad, (i) => post("/v1/remember", memoryBody(stored + i)));
    const rssLoaded = rssMb(pid);
    const queries = Array.from({ length: QUERIES }, () => phrase(3 + Math.floor(random() * 4)));
    const project = (i: number) => `project-${i % PROJECTS}`;
    const phases = {
      search: () => run(QUERIES, (i) => post("/v1/search", { message: queries[i] as string })),
      "search + project": () =>
        run(QUERIES, (i) =>
          post("/v1/search", { message: queries[i] as string, project: project(i) }),
        ),
      recall: () =>
        run(RECALL_QUERIES, (i) => post("/v1/recall", { message: queries[i] as string })),
      "recall + project": () =>
        run(RECALL_QUERIES, (i) =>
          post("/v1/recall", { message: queries[i] as string, project: project(i) }),
        ),
    };
    const rows: string[][] = [];
    const fmt = (x: number) => x.toFixed(1);
    if (load !== undefined) {
      const loadSorted = [...load.latencies].sort((a, b) => a - b);
      rows.push([
        "remember",
        String(toLoad),
        fmt(toLoad / load.seconds),
        fmt(percentile(loadSorted, 50)),
        fmt(percentile(loadSorted, 95)),
        fmt(percentile(loadSorted, 99)),
      ]);
    }
    let rssPeak = rssLoaded;
    for (const [name, phase] of Object.entries(phases)) {
      await run(Math.min(200, QUERIES), (i) =>
        post("/v1/search", { message: queries[i] as string }),
      ); // warm-up
      const result = await phase();
      rssPeak = Math.max(rssPeak, rssMb(pid));
      const sorted = [...result.latencies].sort((a, b) => a - b);
      const count = result.latencies.length;
      rows.push([
        name,
        String(count),
        fmt(count / result.seconds),
        fmt(percentile(sorted, 50)),
        fmt(percentile(sorted, 95)),
        fmt(percentile(sorted, 99)),
      ]);
    }
    const header = ["operation", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms"];
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
    for (const row of rows) console.log(line(row));
    console.log();
    console.log(
      `service RSS (Node process only, VmRSS): idle ${fmt(rssIdle)} MB, after load ${fmt(rssLoaded)} MB, peak during queries ${fmt(rssPeak)} MB`,
    );
    if (retries > 0)
      console.log(`${retries} request(s) retried after ECONNRESET on a reused socket`);
    console.log(
      `concurrency ${CONCURRENCY} keep-alive clients; ${N} memories over ${PROJECTS} projects (50% project, 20% permanent, 20% session, 10% ttl)`,
    );
  } finally {
    agent.destroy();
    stopAll();
    await new Promise((resolve) =>
      child.exitCode === null ? child.once("exit", resolve) : resolve(undefined),
    );
    if (kept === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
