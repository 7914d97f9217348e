/**
 * Load benchmark of `sqlsvc-mcp`, alone or side by side with the Go original (GoSQLX
 * `gosqlx-mcp`, a binary you build yourself; it is not part of this repository).
 *
 * Starts the built server (`npm run build` first) on a free loopback port and drives it with 8
 * concurrent keep-alive clients sending `tools/call` for each tool with the three queries of the
 * comparison (1, 5 and 60 lines, `tests/fixtures/reference/sql-bench-queries.sql`). The figure
 * to compare is the server's CPU time per call: user + system summed over the server process and
 * all its workers (cluster processes, threads), read from /proc, after warm-up. req/s on a shared
 * two-core machine depends on what else runs; CPU per call much less.
 *
 *   npx tsx bench/sql-mcp-load.ts                          # ours only: req/s, p50/p99, CPU µs/call
 *   npx tsx bench/sql-mcp-load.ts --go /tmp/gosqlx-mcp     # ours and Go, one run, ratio per cell
 *   npx tsx bench/sql-mcp-load.ts --go /tmp/gosqlx-mcp --reps 5 --seconds 2
 *   npx tsx bench/sql-mcp-load.ts --go /tmp/gosqlx-mcp --tools validate_sql,parse_sql --queries 1
 *
 * With `--go`, both servers run for the whole run and the load generator rotates between them
 * within each cell: every repetition measures ours and Go back to back (the order alternating
 * between repetitions), so whatever load the machine has hits both. Each cell prints the median
 * CPU per call of each, the median of the per-repetition ratios ours/Go, the goal (ratio ≤ 2/3)
 * and the machine's 1-minute load average while it ran.
 *
 *   BENCH_SECONDS=3  (measured seconds per server and repetition; `--seconds`)
 *   BENCH_REPS=5  (repetitions per cell with `--go`; `--reps`; default 5, and 1 without `--go`)
 *   BENCH_WARMUP_CALLS=800  (the first, global warm-up: calls per tool and query; default 800)
 *   SQLSVC_MCP_WORKERS=1 BENCH_TOOLS=validate_sql,analyze_sql BENCH_QUERIES=1,5  (`--tools`, `--queries`)
 *   BENCH_SQLSVC_BIN=/path/to/dist/shells/sqlsvc/cli/sqlsvc-mcp.js  (another build, to compare)
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"  (Node options for our server processes)
 *
 * The Go server is started with GOSQLX_MCP_HOST/GOSQLX_MCP_PORT and spoken to as its MCP
 * streamable-HTTP transport requires (an `initialize` first, then its `Mcp-Session-Id` header).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { treeCpuSeconds } from "./support/process-cpu.js";
import { RawClient, httpRequest } from "./support/raw-http-client.js";
import { sqlBenchQueries } from "./support/sql-bench-queries.js";

const { values: args } = parseArgs({
  options: {
    go: { type: "string" },
    reps: { type: "string" },
    seconds: { type: "string" },
    tools: { type: "string" },
    queries: { type: "string" },
  },
});
const GO_BIN = args.go ?? process.env["BENCH_GO_BIN"];
const SECONDS = Number(args.seconds ?? process.env["BENCH_SECONDS"] ?? 3);
const REPS = Number(args.reps ?? process.env["BENCH_REPS"] ?? (GO_BIN === undefined ? 1 : 5));
const WARMUP_SECONDS = 0.5; // before each measured slice
const CLIENTS = Number(process.env["BENCH_CLIENTS"] ?? 8);
/** The server under test; `BENCH_SQLSVC_BIN` points at another build (e.g. of main, to compare). */
const BIN =
  process.env["BENCH_SQLSVC_BIN"] ??
  fileURLToPath(new URL("../dist/shells/sqlsvc/cli/sqlsvc-mcp.js", import.meta.url));
/** The goal: at most this share of the Go original's CPU per call (1.5x its throughput). */
const GOAL_RATIO = 2 / 3;

const QUERIES = sqlBenchQueries();
const ALL_TOOLS = [
  "validate_sql",
  "format_sql",
  "parse_sql",
  "extract_metadata",
  "security_scan",
  "lint_sql",
  "analyze_sql",
];
const WARMUP_CALLS = Number(process.env["BENCH_WARMUP_CALLS"] ?? 800);
const TOOLS = (args.tools ?? process.env["BENCH_TOOLS"] ?? ALL_TOOLS.join(",")).split(",");
/** Which queries are measured, by line count (`--queries 1,5`); all three by default. */
const MEASURED_QUERIES = (args.queries ?? process.env["BENCH_QUERIES"] ?? "1,5,60").split(",");
for (const tool of TOOLS) {
  if (!ALL_TOOLS.includes(tool)) throw new Error(`--tools: unknown tool ${tool}`);
}

/** A running server under test. */
interface Target {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  /** Headers every call carries (the Go server's session id). */
  readonly headers: Readonly<Record<string, string>>;
  readonly clients: readonly RawClient[];
  /** True when a tools/call answer is a success (each server has its own result shape). */
  readonly succeeded: (answer: unknown) => boolean;
  stop(): Promise<void>;
}

interface Slice {
  readonly calls: number;
  readonly cpuUs: number;
  readonly latencies: number[];
  readonly failures: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns `command` and resolves with the port its stderr announces (`listening on …:PORT`). */
async function spawnListening(
  command: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command, argv, { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      // Keep only the tail: our server logs a line per tool call, and matching a regex over an
      // ever-growing string made this load generator quadratic (it starved the server it measured).
      stderr = (stderr + chunk).slice(-16_384);
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`${command} exited with ${String(code)}:\n${stderr}`)),
    );
  });
  return { child, port };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

async function openClients(port: number): Promise<RawClient[]> {
  return Promise.all(Array.from({ length: CLIENTS }, () => RawClient.open(port)));
}

/** A tools/call answer whose result is no tool error (the shape both servers share). */
function resultOk(answer: unknown): answer is { result: { isError?: boolean } } {
  const result = (answer as { result?: { isError?: boolean } }).result;
  return result !== undefined && result.isError !== true;
}

async function startOurs(): Promise<Target> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SQLSVC_MCP_HOST: "127.0.0.1",
    SQLSVC_MCP_PORT: "0",
    SQLSVC_MCP_ALLOW_PORT_0: "1",
  };
  delete env["SQLSVC_MCP_AUTH_TOKEN"];
  // BENCH_NODE_ARGS: Node options for the server and its workers, e.g. to profile them with
  // `--cpu-prof --cpu-prof-dir=/tmp/prof` (cluster workers inherit the primary's execArgv).
  const nodeArgs = (process.env["BENCH_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "");
  const { child, port } = await spawnListening(process.execPath, [...nodeArgs, BIN], env);
  return {
    name: "ours",
    pid: child.pid as number,
    port,
    headers: {},
    clients: await openClients(port),
    succeeded: (answer) =>
      resultOk(answer) &&
      (answer as { result: { structuredContent?: { errors?: unknown } } }).result.structuredContent
        ?.errors === undefined,
    stop: stopper(child),
  };
}

async function startGo(bin: string): Promise<Target & { version: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GOSQLX_MCP_HOST: "127.0.0.1",
    GOSQLX_MCP_PORT: String(await freePort()),
  };
  delete env["GOSQLX_MCP_AUTH_TOKEN"];
  const { child, port } = await spawnListening(bin, [], env);
  // Its streamable-HTTP transport answers calls only within a session opened by `initialize`.
  const init = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-03-26",
        capabilities: {},
        clientInfo: { name: "sql-mcp-load", version: "1" },
      },
    }),
  });
  const session = init.headers.get("mcp-session-id");
  const info = (await init.json()) as { result?: { serverInfo?: { version?: string } } };
  const headers: Record<string, string> = session === null ? {} : { "Mcp-Session-Id": session };
  return {
    name: "go",
    version: info.result?.serverInfo?.version ?? "?",
    pid: child.pid as number,
    port,
    headers,
    clients: await openClients(port),
    succeeded: resultOk,
    stop: stopper(child),
  };
}

function callBody(tool: string, sql: string): Buffer {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: tool, arguments: { sql } },
  };
  return Buffer.from(JSON.stringify(message));
}

function callRequest(target: Target, tool: string, sql: string): Buffer {
  return httpRequest(target.port, callBody(tool, sql), target.headers);
}

async function drive(
  clients: readonly RawClient[],
  request: Buffer,
  seconds: number,
  latencies: number[] | undefined,
) {
  const end = performance.now() + seconds * 1000;
  let failures = 0;
  let calls = 0;
  const run = async (client: RawClient) => {
    while (performance.now() < end) {
      const start = performance.now();
      const status = await client.send(request);
      latencies?.push(performance.now() - start);
      calls++;
      if (status !== 200) failures++;
    }
  };
  await Promise.all(clients.map(run));
  return { calls, failures };
}

/** Sends `calls` requests in all, spread over the clients. */
async function driveCalls(clients: readonly RawClient[], request: Buffer, calls: number) {
  let left = calls;
  const run = async (client: RawClient) => {
    while (left > 0) {
      left--;
      await client.send(request);
    }
  };
  await Promise.all(clients.map(run));
}

async function checkAnswer(target: Target, tool: string, sql: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${target.port}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...target.headers },
    body: callBody(tool, sql),
  });
  const body: unknown = await res.json();
  if (!target.succeeded(body)) {
    throw new Error(
      `${target.name}: ${tool} did not succeed on the benchmark query: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
}

/** One warm-up pass then one measured slice of `SECONDS` on `target`. */
async function measure(target: Target, tool: string, sql: string): Promise<Slice> {
  const request = callRequest(target, tool, sql);
  await drive(target.clients, request, WARMUP_SECONDS, undefined);
  const latencies: number[] = [];
  const cpuBefore = treeCpuSeconds(target.pid);
  const { calls, failures } = await drive(target.clients, request, SECONDS, latencies);
  const cpuSeconds = treeCpuSeconds(target.pid) - cpuBefore;
  return { calls, cpuUs: (cpuSeconds * 1e6) / Math.max(1, calls), latencies, failures };
}

/**
 * Warms every tool on every query (JIT and WASM tier-up in every worker of ours; Go's heap), then
 * waits until the idle server is quiet: V8 re-compiles the WASM parsers' hot code in background
 * threads for seconds after the first calls, and that CPU is not per-call cost. Counted in calls,
 * not seconds, so a busy machine warms up as far as a quiet one.
 */
async function warmUp(target: Target, calls: number): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const tool of ALL_TOOLS) {
      for (const sql of Object.values(QUERIES)) {
        await driveCalls(target.clients, callRequest(target, tool, sql), calls / 2);
      }
    }
  }
  const quietSince = performance.now();
  for (;;) {
    const before = treeCpuSeconds(target.pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = treeCpuSeconds(target.pid) - before;
    if (busy <= 0.02 || performance.now() - quietSince > 60_000) {
      console.log(
        `${target.name}: idle after ${((performance.now() - quietSince) / 1000).toFixed(1)} s of warm-up`,
      );
      return;
    }
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function* cells(): Generator<{ tool: string; size: string; sql: string }> {
  for (const tool of TOOLS) {
    for (const [size, sql] of Object.entries(QUERIES)) {
      if (MEASURED_QUERIES.includes(size.split(" ")[0] ?? "")) yield { tool, size, sql };
    }
  }
}

async function runOursOnly(ours: Target): Promise<void> {
  console.log(
    "tool              query      req/s  p50 ms  p99 ms  CPU µs/call  load 1m" +
      (REPS > 1 ? "  (medians of " + String(REPS) + " repetitions)" : ""),
  );
  for (const { tool, size, sql } of cells()) {
    await checkAnswer(ours, tool, sql);
    const slices: Slice[] = [];
    for (let rep = 0; rep < REPS; rep++) slices.push(await measure(ours, tool, sql));
    const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
    const failures = slices.reduce((sum, s) => sum + s.failures, 0);
    console.log(
      `${tool.padEnd(17)} ${size.padEnd(8)} ${(median(slices.map((s) => s.calls)) / SECONDS).toFixed(0).padStart(7)} ` +
        `${percentile(latencies, 50).toFixed(2).padStart(7)} ${percentile(latencies, 99).toFixed(2).padStart(7)} ` +
        `${median(slices.map((s) => s.cpuUs))
          .toFixed(0)
          .padStart(12)} ${loadavg()[0]?.toFixed(2).padStart(8)}` +
        `${failures > 0 ? `  (${failures} non-200)` : ""}`,
    );
  }
}

async function runSideBySide(ours: Target, go: Target): Promise<void> {
  console.log(
    "tool              query     ours µs  Go µs  ours/Go (min-max)  goal ≤ 0.67  load 1m  errors",
  );
  let met = 0;
  let total = 0;
  let runs = 0;
  let errors = 0;
  const loads: number[] = [];
  for (const { tool, size, sql } of cells()) {
    await checkAnswer(ours, tool, sql);
    await checkAnswer(go, tool, sql);
    const ratios: number[] = [];
    const oursUs: number[] = [];
    const goUs: number[] = [];
    let cellErrors = 0;
    for (let rep = 0; rep < REPS; rep++) {
      // Alternate which server goes first, so neither always follows the other's heat.
      const order = rep % 2 === 0 ? [ours, go] : [go, ours];
      const slices = new Map<Target, Slice>();
      for (const target of order) slices.set(target, await measure(target, tool, sql));
      const mine = slices.get(ours) as Slice;
      const theirs = slices.get(go) as Slice;
      oursUs.push(mine.cpuUs);
      goUs.push(theirs.cpuUs);
      ratios.push(mine.cpuUs / theirs.cpuUs);
      cellErrors += mine.failures + theirs.failures;
      runs += 2;
      loads.push(loadavg()[0] ?? NaN);
    }
    // Again after the load: a server that started refusing (e.g. a rate limiter answering 200
    // with a JSON-RPC error, as gosqlx-mcp v1.11+ does per client address) must not pass for fast.
    await checkAnswer(ours, tool, sql);
    await checkAnswer(go, tool, sql);
    const ratio = median(ratios);
    total++;
    if (ratio <= GOAL_RATIO) met++;
    errors += cellErrors;
    console.log(
      `${tool.padEnd(17)} ${size.padEnd(8)} ${median(oursUs).toFixed(0).padStart(8)} ${median(goUs)
        .toFixed(0)
        .padStart(
          6,
        )}  ${ratio.toFixed(2).padStart(7)} (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})` +
        `  ${(ratio <= GOAL_RATIO ? "met" : "MISSED").padStart(11)}  ${loadavg()[0]?.toFixed(2).padStart(7)}  ${String(cellErrors).padStart(6)}`,
    );
  }
  console.log(
    `\ngoal (ours ≤ 2/3 of the Go original's server CPU per call, median ratio of ${REPS} ` +
      `repetitions): ${met} of ${total} cells met; ${runs} runs, ${errors} non-200 answers; ` +
      `1-minute load during the cells ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  const ours = await startOurs();
  const go = GO_BIN === undefined ? undefined : await startGo(GO_BIN);
  try {
    console.log(
      `sqlsvc-mcp load: ${CLIENTS} keep-alive clients per server, ${SECONDS}s per slice after ` +
        `${WARMUP_SECONDS}s warm-up, ${REPS} repetition(s) per cell, workers=` +
        `${process.env["SQLSVC_MCP_WORKERS"] ?? `default (${availableParallelism()})`}, ` +
        `cores=${availableParallelism()}, node ${process.version}` +
        (go === undefined
          ? ""
          : `; Go original: ${GO_BIN ?? ""} (serverInfo.version ${go.version})`),
    );
    console.log(`load average before: ${load()}`);
    await warmUp(ours, WARMUP_CALLS);
    if (go === undefined) await runOursOnly(ours);
    else {
      await warmUp(go, WARMUP_CALLS / 4);
      await runSideBySide(ours, go);
    }
    console.log(`load average after: ${load()}`);
  } finally {
    for (const target of [ours, go]) {
      if (target === undefined) continue;
      for (const client of target.clients) client.close();
      await target.stop();
    }
  }
}

await main();
