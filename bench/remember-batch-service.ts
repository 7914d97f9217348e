/**
 * Where the memory service's CPU goes on batched remembers over PostgreSQL, thread by thread:
 * starts a throwaway PostgreSQL server (tests/support/postgres-server.ts) and `node
 * dist/shells/memsvc/cli/memsvc.js serve` on it (local word-vector embedder, 100 dimensions),
 * makes every request body first (the load generator's JSON is not measured alongside), sends
 * `--warm` batches, then `--batches` batches of 1,000 memories from 2 clients (as
 * `bench/memory-load.ts` does), and prints per 1,000 memories: the CPU of the service's main
 * thread and of its other threads (V8's garbage-collection helpers, libuv's pool: they share the
 * cores with PostgreSQL and the clients), user and system, and the minor page faults (on this
 * machine kind a first touch of a fresh 4 KB page costs ~30 µs, so freshly mapped memory is a
 * cost of its own). More batches than the load bench's 8 make it less noisy.
 *
 * Run (after `npm run build`):
 *   npx tsx bench/remember-batch-service.ts [--batches 20] [--warm 4]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startPostgresServer } from "../tests/support/postgres-server.js";
import { intOption } from "./support/int-option.js";
import { memoryLoadCorpus } from "./support/memory-load-corpus.js";
import { seededRandom } from "./support/seeded-random.js";

const BIN = fileURLToPath(new URL("../dist/shells/memsvc/cli/memsvc.js", import.meta.url));
const BATCHES = intOption("batches", 20);
const WARM = intOption("warm", 4);
const BATCH = 1_000;
const MS_PER_TICK = 10; // USER_HZ 100

const { memoryBody } = memoryLoadCorpus(seededRandom(42));
let next = 0;
const bodies = (n: number) =>
  Array.from({ length: n }, () =>
    JSON.stringify({ memories: Array.from({ length: BATCH }, () => memoryBody(next++)) }),
  );

/** user and system ms of each thread kind of `pid` ("main", else the thread's name). */
function threadCpu(pid: number): Map<string, { user: number; system: number }> {
  const kinds = new Map<string, { user: number; system: number }>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const kind =
      task === String(pid) ? "main" : readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
    const seen = kinds.get(kind) ?? { user: 0, system: 0 };
    seen.user += Number(fields[11]) * MS_PER_TICK;
    seen.system += Number(fields[12]) * MS_PER_TICK;
    kinds.set(kind, seen);
  }
  return kinds;
}

function minorFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
}

async function main(): Promise<void> {
  const postgres = await startPostgresServer();
  const dir = mkdtempSync(join(tmpdir(), "memsvc-batch-bench-"));
  const child = spawn(process.execPath, [BIN, "serve"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      PATH: process.env["PATH"],
      MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
      MEMSVC_LOG_LEVEL: "warn",
      MEMSVC_VECTOR_STORE_PROVIDER: "postgres",
      MEMSVC_VECTOR_STORE_POSTGRES_URL: postgres.url,
      MEMSVC_EMBEDDER_LOCAL_DIMENSIONS: "100",
    },
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const match = /listening on http:\/\/\S+:(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once("exit", (code) => reject(new Error(`memsvc exited with ${code}`)));
    });
    const pid = child.pid as number;
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/v1/remember/batch",
            method: "POST",
            agent,
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () =>
              res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
            );
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const send = async (list: readonly string[]) => {
      let i = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (i < list.length) await post(list[i++] as string);
        }),
      );
    };
    await send(bodies(WARM));
    const measured = bodies(BATCHES);
    const load = loadavg();
    const faults = minorFaults(pid);
    const before = threadCpu(pid);
    const started = performance.now();
    await send(measured);
    const seconds = (performance.now() - started) / 1000;
    const after = threadCpu(pid);
    const perBatch = (ms: number) => (ms / BATCHES).toFixed(1);
    let user = 0;
    let system = 0;
    for (const [kind, cpu] of after) {
      const was = before.get(kind) ?? { user: 0, system: 0 };
      const u = cpu.user - was.user;
      const s = cpu.system - was.system;
      user += u;
      system += s;
      if (u + s > 0) {
        console.log(
          `${kind.padEnd(16)} user ${perBatch(u)} ms, system ${perBatch(s)} ms per 1,000`,
        );
      }
    }
    console.log(
      `service CPU ${perBatch(user + system)} ms per 1,000 memories (user ${perBatch(user)}, system ${perBatch(system)}); ` +
        `${((minorFaults(pid) - faults) / BATCHES).toFixed(0)} minor page faults per 1,000; ` +
        `${((BATCHES * BATCH) / seconds).toFixed(0)} memories/s; loadavg at start ${load.map((x) => x.toFixed(2)).join(" ")}`,
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
