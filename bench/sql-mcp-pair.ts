/**
 * Paired comparison of two builds of `sqlsvc-mcp` on one tool call: both servers run at the same
 * time (one worker each) and are driven in alternating slices by 8 keep-alive raw-socket clients
 * (`CLIENTS=1` for one; `WORKERS=2` for two HTTP workers each, the servers' default on two cores and
 * what `bench/sql-mcp-load.ts` runs), so both see the same machine load; prints each build's server CPU µs per
 * call per slice and the median. On a shared machine, where `bench/sql-mcp-load.ts` cells swing by ±50 % between
 * runs, this is how a change's effect on the per-call cost can still be read.
 *
 *   A=/path/to/main/dist/shells/sqlsvc/cli/sqlsvc-mcp.js npx tsx bench/sql-mcp-pair.ts
 *   A=… B=… TOOL=parse_sql SQL="SELECT 1" SLICES=10 SLICE_SECONDS=1.5 npx tsx bench/sql-mcp-pair.ts
 *
 * B defaults to this checkout's build (`npm run build` first); SQL to the 1-line benchmark query.
 * `B_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"` passes Node options to B's server only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";

const A = process.env["A"];
const B =
  process.env["B"] ??
  fileURLToPath(new URL("../dist/shells/sqlsvc/cli/sqlsvc-mcp.js", import.meta.url));
const TOOL = process.env["TOOL"] ?? "validate_sql";
const SQL = process.env["SQL"] ?? "SELECT id, name FROM users WHERE id = 42";
const SLICES = Number(process.env["SLICES"] ?? 10);
const SLICE_SECONDS = Number(process.env["SLICE_SECONDS"] ?? 1.5);
const CLIENTS = Number(process.env["CLIENTS"] ?? 8);
const WORKERS = process.env["WORKERS"] ?? "1";

/** CPU seconds (user + system) of a process and its children (cluster workers), from /proc. */
function cpuSeconds(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  let ticks = 0;
  for (const p of [pid, ...children.split(/\s+/).filter(Boolean).map(Number)]) {
    const stat = readFileSync(`/proc/${p}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

async function start(
  bin: string,
  nodeArgs: readonly string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...nodeArgs, bin], {
    env: {
      ...process.env,
      SQLSVC_MCP_HOST: "127.0.0.1",
      SQLSVC_MCP_PORT: "0",
      SQLSVC_MCP_ALLOW_PORT_0: "1",
      SQLSVC_MCP_WORKERS: WORKERS,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let tail = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      tail = (tail + chunk).slice(-4096);
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(tail);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`${bin} exited with ${String(code)}`)));
  });
  return { child, port };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.setNoDelay(true);
  });
}

/** A `tools/call` request; `Host` names the server's port, as its Host check requires. */
function request(port: number): Buffer {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: TOOL, arguments: { sql: SQL } },
  });
  return Buffer.from(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Sends `req` back to back on every socket for `seconds`; resolves with the calls answered. */
async function drive(sockets: readonly Socket[], req: Buffer, seconds: number): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let calls = 0;
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve, reject) => {
          let buffered = "";
          const next = () => {
            if (performance.now() < end) socket.write(req);
            else {
              socket.removeAllListeners("data");
              resolve();
            }
          };
          socket.on("data", (chunk: Buffer) => {
            buffered += chunk.toString("latin1");
            for (;;) {
              const head = buffered.indexOf("\r\n\r\n");
              if (head < 0) return;
              const length = /content-length: *(\d+)/i.exec(buffered.slice(0, head));
              const total = head + 4 + Number(length?.[1]);
              if (length === null || buffered.length < total) return;
              if (!buffered.startsWith("HTTP/1.1 200")) reject(new Error(buffered.slice(0, 300)));
              buffered = buffered.slice(total);
              calls++;
              next();
            }
          });
          next();
        }),
    ),
  );
  return calls;
}

async function main(): Promise<void> {
  if (A === undefined)
    throw new Error("set A to the other build's dist/shells/sqlsvc/cli/sqlsvc-mcp.js");
  const bArgs = (process.env["B_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
  const servers = await Promise.all([start(A), start(B, bArgs)]);
  const sockets = await Promise.all(
    servers.map((s) => Promise.all(Array.from({ length: CLIENTS }, () => open(s.port)))),
  );
  const reqs = servers.map((s) => request(s.port));
  try {
    // Warm-up: JIT and the WASM parsers' tier-up, in both.
    for (let round = 0; round < 3; round++) {
      for (const [k, clients] of sockets.entries()) await drive(clients, reqs[k] as Buffer, 3);
    }
    const perCall: [number[], number[]] = [[], []];
    for (let slice = 0; slice < SLICES; slice++) {
      for (const k of slice % 2 === 0 ? [0, 1] : [1, 0]) {
        const pid = servers[k]?.child.pid as number;
        const before = cpuSeconds(pid);
        const calls = await drive(sockets[k] ?? [], reqs[k] as Buffer, SLICE_SECONDS);
        perCall[k]?.push(((cpuSeconds(pid) - before) * 1e6) / Math.max(1, calls));
      }
    }
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    console.log(`${TOOL}, ${SQL.length} characters, load average ${load}; server CPU µs per call`);
    perCall.forEach((values, k) => {
      const sorted = [...values].sort((x, y) => x - y);
      const median = sorted[sorted.length >> 1] ?? NaN;
      console.log(
        `${k === 0 ? "A" : "B"}  median ${median.toFixed(0).padStart(5)}   slices ${values.map((v) => v.toFixed(0)).join(" ")}`,
      );
    });
  } finally {
    for (const socket of sockets.flat()) socket.destroy();
    for (const { child } of servers) child.kill("SIGTERM");
  }
}

await main();
