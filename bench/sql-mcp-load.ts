/**
 * Load benchmark of `sqlsvc-mcp`: starts the built server (`npm run build` first) on a free
 * loopback port, drives it with 8 concurrent keep-alive clients sending `tools/call` for each tool
 * with a 1-line, a 5-line and a 60-line query, prints req/s and p50/p99 latency per cell, and
 * stops the server.
 *
 *   npx tsx bench/sql-mcp-load.ts
 *   BENCH_SECONDS=5 SQLSVC_MCP_WORKERS=1 BENCH_TOOLS=validate_sql,analyze_sql npx tsx bench/sql-mcp-load.ts
 *
 * The load generator shares the machine with the server, so it is kept cheap: one process, one
 * keep-alive connection per client speaking HTTP/1.1 directly over a socket (node:http's client
 * cost as much CPU per request as the server), each request's bytes built once, responses only
 * framed by Content-Length and checked for status 200.
 */
import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 3);
const WARMUP_SECONDS = 0.5;
const CLIENTS = Number(process.env["BENCH_CLIENTS"] ?? 8);
const BIN = fileURLToPath(new URL("../dist/shells/cli/sqlsvc-mcp.js", import.meta.url));

const ONE_LINE = "SELECT id, name, email FROM users WHERE active = true ORDER BY name LIMIT 10";

const FIVE_LINES = `SELECT u.id, u.name, COUNT(o.id) AS order_count
FROM users AS u
LEFT JOIN orders AS o ON o.user_id = u.id
WHERE u.created_at > '2024-01-01' AND u.active = true
GROUP BY u.id, u.name ORDER BY order_count DESC LIMIT 20`;

const SIXTY_LINES = `WITH recent_orders AS (
    SELECT
        o.id,
        o.user_id,
        o.total_amount,
        o.created_at,
        ROW_NUMBER() OVER (PARTITION BY o.user_id ORDER BY o.created_at DESC) AS rn
    FROM orders AS o
    WHERE o.created_at >= '2024-01-01'
      AND o.status IN ('paid', 'shipped', 'delivered')
),
user_totals AS (
    SELECT
        r.user_id,
        SUM(r.total_amount) AS lifetime_value,
        COUNT(*) AS order_count,
        MAX(r.created_at) AS last_order_at
    FROM recent_orders AS r
    GROUP BY r.user_id
),
top_products AS (
    SELECT
        oi.order_id,
        p.name AS product_name,
        p.category,
        oi.quantity * oi.unit_price AS line_total
    FROM order_items AS oi
    INNER JOIN products AS p ON p.id = oi.product_id
    WHERE p.discontinued = false
)
SELECT
    u.id,
    u.name,
    u.email,
    ut.lifetime_value,
    ut.order_count,
    ut.last_order_at,
    COALESCE(a.city, 'unknown') AS city,
    CASE
        WHEN ut.lifetime_value > 10000 THEN 'platinum'
        WHEN ut.lifetime_value > 5000 THEN 'gold'
        WHEN ut.lifetime_value > 1000 THEN 'silver'
        ELSE 'bronze'
    END AS tier,
    (
        SELECT COUNT(*)
        FROM top_products AS tp
        INNER JOIN recent_orders AS ro ON ro.id = tp.order_id
        WHERE ro.user_id = u.id
    ) AS products_bought
FROM users AS u
INNER JOIN user_totals AS ut ON ut.user_id = u.id
LEFT JOIN addresses AS a ON a.user_id = u.id AND a.is_primary = true
WHERE u.deleted_at IS NULL
  AND u.email NOT LIKE '%@example.com'
  AND ut.order_count >= 2
ORDER BY ut.lifetime_value DESC, u.name ASC
LIMIT 100`;

const QUERIES = { "1 line": ONE_LINE, "5 lines": FIVE_LINES, "60 lines": SIXTY_LINES } as const;
const TOOLS = (
  process.env["BENCH_TOOLS"] ??
  "validate_sql,format_sql,parse_sql,extract_metadata,security_scan,lint_sql,analyze_sql"
).split(",");

interface Cell {
  readonly tool: string;
  readonly size: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly failures: number;
}

async function startServer(): Promise<{ port: number; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SQLSVC_MCP_HOST: "127.0.0.1",
    SQLSVC_MCP_PORT: "0",
    SQLSVC_MCP_ALLOW_PORT_0: "1",
  };
  delete env["SQLSVC_MCP_AUTH_TOKEN"];
  const child = spawn(process.execPath, [BIN], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited with ${String(code)}:\n${stderr}`)),
    );
  });
  return {
    port,
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
  console.log("tool              query       req/s   p50 ms   p99 ms");
  try {
    // JIT and WASM warm-up in every worker before the first figure, else the first cell reads low.
    for (const tool of TOOLS) {
      for (const sql of Object.values(QUERIES)) {
        await drive(clients, httpRequest(server.port, callBody(tool, sql)), 0.15, undefined);
      }
    }
    for (const tool of TOOLS) {
      for (const [size, sql] of Object.entries(QUERIES)) {
        await checkAnswer(server.port, tool, sql);
        const body = callBody(tool, sql);
        const request = httpRequest(server.port, body);
        await drive(clients, request, WARMUP_SECONDS, undefined);
        const latencies: number[] = [];
        const failures = await drive(clients, request, SECONDS, latencies);
        latencies.sort((a, b) => a - b);
        const cell = {
          tool,
          size,
          rps: latencies.length / SECONDS,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          failures,
        };
        cells.push(cell);
        console.log(
          `${tool.padEnd(17)} ${size.padEnd(9)} ${cell.rps.toFixed(0).padStart(7)} ${cell.p50.toFixed(2).padStart(8)} ` +
            `${cell.p99.toFixed(2).padStart(8)}${failures > 0 ? `  (${failures} non-200)` : ""}`,
        );
      }
    }
    console.log("\ngoals on the 5-line query (req/s): single tools >= 4500, analyze_sql >= 1800");
    for (const cell of cells.filter((c) => c.size === "5 lines")) {
      const goal = cell.tool === "analyze_sql" ? 1800 : 4500;
      console.log(
        `  ${cell.tool.padEnd(17)} ${cell.rps.toFixed(0).padStart(6)}  ${cell.rps >= goal ? "met" : "MISSED"}`,
      );
    }
  } finally {
    for (const client of clients) client.close();
    await server.stop();
  }
}

await main();
