/**
 * Load benchmark of `sqlsvc-mcp`: starts the built server (`npm run build` first) on a free
 * loopback port, drives it with 8 concurrent keep-alive clients sending `tools/call` for each tool
 * with the three queries of the side-by-side comparison with the Go original (1, 5 and 60 lines,
 * `tests/fixtures/reference/sql-bench-queries.sql`), and prints per cell req/s, p50/p99 latency
 * and the server's CPU time per call (user + system summed over the server process and its
 * cluster workers, read from /proc, after warm-up), next to the Go original's CPU per call and the
 * goal (two thirds of it: 1.5x its throughput). CPU per call is the figure to compare: req/s on a
 * shared two-core machine depends on what else runs.
 *
 *   npx tsx bench/sql-mcp-load.ts
 *   BENCH_WARMUP_CALLS=800  (the first, global warm-up: calls per tool and query; default 800)
 *   BENCH_SECONDS=5 SQLSVC_MCP_WORKERS=1 BENCH_TOOLS=validate_sql,analyze_sql npx tsx bench/sql-mcp-load.ts
 *   BENCH_QUERIES=1,5  (only the 1- and 5-line queries; default 1,5,60)
 *   BENCH_SQLSVC_BIN=/path/to/dist/shells/sqlsvc/cli/sqlsvc-mcp.js  (another build, to compare)
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"  (Node options for the server processes)
 *
 * The load generator shares the machine with the server, so it is kept cheap: one process, one
 * keep-alive connection per client speaking HTTP/1.1 directly over a socket (node:http's client
 * cost as much CPU per request as the server), each request's bytes built once, responses only
 * framed by Content-Length and checked for status 200.
 */
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { readFileSync, readdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 3);
const WARMUP_SECONDS = 0.5; // before each cell
const CLIENTS = Number(process.env["BENCH_CLIENTS"] ?? 8);
/** The server under test; `BENCH_SQLSVC_BIN` points at another build (e.g. of main, to compare). */
const BIN =
  process.env["BENCH_SQLSVC_BIN"] ??
  fileURLToPath(new URL("../dist/shells/sqlsvc/cli/sqlsvc-mcp.js", import.meta.url));

/**
 * The three queries of the side-by-side benchmark against the Go original (the issue's table):
 * `tests/fixtures/reference/sql-bench-queries.sql`, split at its `-- small|medium|large` headers.
 */
function benchQueries(): Record<string, string> {
  const file = readFileSync(
    new URL("../tests/fixtures/reference/sql-bench-queries.sql", import.meta.url),
    "utf8",
  );
  const out: Record<string, string> = {};
  for (const part of file.split(/^-- (?=small|medium|large)/m).slice(1)) {
    const name = part.slice(0, part.indexOf("\n")).trim();
    const body = part
      .slice(part.indexOf("\n") + 1)
      .replace(/\n;\s*$/, "")
      .trim();
    out[{ small: "1 line", medium: "5 lines", large: "60 lines" }[name] ?? name] = body;
  }
  return out;
}

const QUERIES = benchQueries();

/**
 * The Go original's server CPU per call in µs (GoSQLX gosqlx-mcp v1.10.0, measured side by side
 * with ours on these three queries; the SQL engine issue). The goal is 1.5x its throughput, i.e.
 * at most two thirds of its CPU per call.
 */
const GO_CPU_US: Record<string, readonly [number, number, number]> = {
  validate_sql: [215, 250, 697],
  parse_sql: [195, 265, 515],
  extract_metadata: [257, 320, 965],
  security_scan: [260, 507, 1907],
  lint_sql: [220, 265, 992],
  format_sql: [215, 262, 950],
  analyze_sql: [377, 905, 6167],
};
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
const TOOLS = (
  process.env["BENCH_TOOLS"] ??
  "validate_sql,format_sql,parse_sql,extract_metadata,security_scan,lint_sql,analyze_sql"
).split(",");

/** Which queries are measured, by line count (`BENCH_QUERIES=1,5`); all three by default. */
const MEASURED_QUERIES = (process.env["BENCH_QUERIES"] ?? "1,5,60").split(",");

interface Cell {
  readonly tool: string;
  readonly size: string;
  readonly rps: number;
  /** Server CPU (user + system, all server processes) per call, µs. */
  readonly cpuUs: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
}

/** The process and all its descendants (cluster workers), from /proc. */
function processTree(pid: number): number[] {
  const pids = [pid];
  // for-of also visits the children pushed while it runs: a breadth-first walk.
  for (const current of pids) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, "utf8").trim();
        if (children !== "") pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // The task ended meanwhile.
      }
    }
  }
  return pids;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux (getconf CLK_TCK)

/** CPU seconds (user + system) used so far by `pid` and its descendants, from /proc/<pid>/stat. */
function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

async function startServer(): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
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
  const child = spawn(process.execPath, [...nodeArgs, BIN], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      // Keep only the tail: the server logs a line per tool call, and matching a regex over an
      // ever-growing string made this load generator quadratic (it starved the server it measured).
      stderr = (stderr + chunk).slice(-16_384);
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited with ${String(code)}:\n${stderr}`)),
    );
  });
  return {
    port,
    pid: child.pid as number,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * One keep-alive HTTP/1.1 connection sending the same pre-built request over and over; resolves
 * each round trip with the response status. Expects Content-Length framing (what the server
 * sends for JSON) and fails loudly otherwise.
 */
class RawClient {
  private readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((status: number) => void) | undefined;
  private failed: ((error: Error) => void) | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (error) => this.failed?.(error));
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  send(request: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = this.buffered.toString("latin1", 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (length === null) {
      this.failed?.(new Error(`response without Content-Length:\n${head}`));
      return;
    }
    const total = headEnd + 4 + Number(length[1]);
    if (this.buffered.length < total) return;
    this.buffered = this.buffered.subarray(total);
    const status = Number(head.slice(9, 12));
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.(status);
  }
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

function httpRequest(port: number, body: Buffer): Buffer {
  const head =
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

async function drive(
  clients: readonly RawClient[],
  request: Buffer,
  seconds: number,
  latencies: number[] | undefined,
) {
  const end = performance.now() + seconds * 1000;
  let failures = 0;
  const run = async (client: RawClient) => {
    while (performance.now() < end) {
      const start = performance.now();
      const status = await client.send(request);
      latencies?.push(performance.now() - start);
      if (status !== 200) failures++;
    }
  };
  await Promise.all(clients.map(run));
  return failures;
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

async function checkAnswer(port: number, tool: string, sql: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: tool, arguments: { sql } },
    }),
  });
  const body = (await res.json()) as {
    result?: { isError?: boolean; structuredContent?: { errors?: unknown } };
  };
  if (body.result === undefined || body.result.isError || body.result.structuredContent?.errors) {
    throw new Error(
      `${tool} did not succeed on the benchmark query: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function main(): Promise<void> {
  const server = await startServer();
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () => RawClient.open(server.port)),
  );
  const cells: Cell[] = [];
  console.log(
    `sqlsvc-mcp load: ${CLIENTS} keep-alive clients, ${SECONDS}s per cell after ${WARMUP_SECONDS}s warm-up, ` +
      `workers=${process.env["SQLSVC_MCP_WORKERS"] ?? `default (${availableParallelism()})`}, cores=${availableParallelism()}, node ${process.version}`,
  );
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    "tool              query      req/s  p50 ms  p99 ms  CPU µs/call  Go µs  goal ≤ µs  verdict",
  );
  try {
    // JIT and WASM warm-up in every worker before the first figure: V8 re-compiles the WASM
    // parsers' hot functions (tier-up) only once they are hot, and until then the first cells
    // read 3-8x the settled CPU per call. Counted in calls, not seconds, so that a busy machine
    // warms up as far as a quiet one: WARMUP_CALLS per tool and query (spread over the clients).
    for (let round = 0; round < 2; round++) {
      for (const tool of ALL_TOOLS) {
        for (const sql of Object.values(QUERIES)) {
          await driveCalls(
            clients,
            httpRequest(server.port, callBody(tool, sql)),
            WARMUP_CALLS / 2,
          );
        }
      }
    }
    // V8 compiles the WASM parsers' hot code again in background threads (tier-up) for seconds
    // after the first calls; that CPU is not per-call cost. Wait until the idle server is quiet.
    const quietSince = performance.now();
    for (;;) {
      const before = treeCpuSeconds(server.pid);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const busy = treeCpuSeconds(server.pid) - before;
      if (busy <= 0.02 || performance.now() - quietSince > 60_000) {
        console.log(
          `server idle after ${((performance.now() - quietSince) / 1000).toFixed(1)} s of background compilation`,
        );
        break;
      }
    }
    for (const tool of TOOLS) {
      for (const [index, [size, sql]] of Object.entries(QUERIES).entries()) {
        if (!MEASURED_QUERIES.includes(size.split(" ")[0] ?? "")) continue;
        await checkAnswer(server.port, tool, sql);
        const body = callBody(tool, sql);
        const request = httpRequest(server.port, body);
        await drive(clients, request, WARMUP_SECONDS, undefined);
        const latencies: number[] = [];
        const cpuBefore = treeCpuSeconds(server.pid);
        const failures = await drive(clients, request, SECONDS, latencies);
        const cpuSeconds = treeCpuSeconds(server.pid) - cpuBefore;
        latencies.sort((a, b) => a - b);
        const cell: Cell = {
          tool,
          size,
          rps: latencies.length / SECONDS,
          cpuUs: (cpuSeconds * 1e6) / Math.max(1, latencies.length),
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          failures,
        };
        cells.push(cell);
        const go = GO_CPU_US[tool]?.[index];
        const goal = go === undefined ? undefined : (go * 2) / 3;
        const verdict = goal === undefined ? "" : cell.cpuUs <= goal ? "met" : "MISSED";
        console.log(
          `${tool.padEnd(17)} ${size.padEnd(8)} ${cell.rps.toFixed(0).padStart(7)} ${cell.p50.toFixed(2).padStart(7)} ` +
            `${cell.p99.toFixed(2).padStart(7)} ${cell.cpuUs.toFixed(0).padStart(12)} ${String(go ?? "-").padStart(6)} ` +
            `${goal === undefined ? "-".padStart(10) : goal.toFixed(0).padStart(10)}  ${verdict}` +
            `${failures > 0 ? `  (${failures} non-200)` : ""}`,
        );
      }
    }
    const missed = cells.filter((c) => {
      const go = GO_CPU_US[c.tool]?.[Object.keys(QUERIES).indexOf(c.size)];
      return go !== undefined && c.cpuUs > (go * 2) / 3;
    });
    console.log(
      `\nload average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    console.log(
      `goal (server CPU per call ≤ 2/3 of the Go original's, i.e. ≥ 1.5x its throughput): ` +
        `${cells.length - missed.length} of ${cells.length} cells met`,
    );
  } finally {
    for (const client of clients) client.close();
    await server.stop();
  }
}

await main();
