/**
 * Time to listen and time to ready of a real `memsvc serve` (dist/) after a crash left a backlog
 * in its write journal (issue 26). The backlog is built fast: the embedded Chroma is stopped
 * (SIGSTOP), `--ids` memories are remembered in batches of 100 (the journal acknowledges them),
 * then the service and Chroma get kill -9. The restart is timed: until the port answers
 * `/healthz`, and until `/readyz` answers 200 (journal replayed, every memory loaded).
 *
 * Run (after `npm run build`):
 *   npx tsx bench/memsvc-early-listen.ts [--ids 50000]
 * Prints the phases in ms and the load average.
 */
import { loadavg } from "node:os";
import { cleanupMemsvc, makeTempDir, startMemsvc } from "../tests/support/spawn-memsvc.js";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 100 || value % 100 !== 0)
    throw new Error(`--${name} expects a positive multiple of 100`);
  return value;
}

const IDS = option("ids", 50_000);
const BATCH = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

try {
  const dataDir = makeTempDir();
  const first = await startMemsvc({ dataDir });
  if (first.chromaPid === undefined) throw new Error("no embedded Chroma");
  process.kill(first.chromaPid, "SIGSTOP");
  const writeStart = performance.now();
  const writer = async (w: number) => {
    for (let b = w; b < IDS / BATCH; b += 4) {
      const res = await fetch(`${first.baseUrl}/v1/remember/batch`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          memories: Array.from({ length: BATCH }, (_, i) => ({
            content: `backlog ${b}.${i}`,
            scope: "permanent",
          })),
        }),
      });
      if (res.status !== 200) throw new Error(`remember/batch: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all([0, 1, 2, 3].map(writer));
  console.log(
    `backlog: ${IDS} ids acknowledged in ${Math.round(performance.now() - writeStart)} ms`,
  );
  await first.killHard();

  const start = performance.now();
  const second = await startMemsvc({ dataDir, untilBound: true });
  const bound = performance.now() - start;
  while ((await fetch(`${second.baseUrl}/healthz`)).status !== 200) await sleep(20);
  const healthy = performance.now() - start;
  let progress = "";
  for (;;) {
    const res = await fetch(`${second.baseUrl}/readyz`);
    if (res.status === 200) break;
    const body = (await res.json()) as { error?: string };
    if (body.error !== undefined && progress === "") progress = body.error;
    await sleep(100);
  }
  const ready = performance.now() - start;
  console.log(
    `restart after kill -9 with ${IDS} ids in the journal: bound ${Math.round(bound)} ms, ` +
      `/healthz 200 ${Math.round(healthy)} ms, /readyz 200 ${Math.round(ready)} ms ` +
      `(first 503 said: ${progress}); load ${loadavg()[0]?.toFixed(2)}`,
  );
  await second.stop();
} finally {
  await cleanupMemsvc();
}
