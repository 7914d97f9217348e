/**
 * How fast the memory browser shows its first page, in Debian's Chromium, against a memsvc
 * holding N memories (default 10,000): starts `node dist/shells/memsvc/cli/memsvc.js serve` with
 * the embedded defaults and a token in a temp dir, loads N memories through the batch endpoint,
 * then opens `/ui` R times in a fresh browser context each (cold cache, token already in session
 * storage) and prints, from the page's own clock, the time from navigation start to the first
 * table row; then the same with a warm cache (reloads), the time to page forward 20 times, and
 * the list call alone from Node. Prints the load average next to the figures: on a busy shared
 * machine the wall times are not the page's.
 *
 * Run (after `npm run build`, with /usr/bin/chromium installed):
 *   npx tsx bench/memory-browser-first-page.ts [--n 10000] [--runs 10] [--data DIR]
 * `--data DIR` keeps the data directory and only adds what it lacks.
 */
import { loadavg } from "node:os";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/headless-chromium.js";
import { cleanupMemsvc, startMemsvc } from "../tests/support/spawn-memsvc.js";
import { seededRandom } from "./support/seeded-random.js";

const TOKEN = "bench-token";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} expects an integer ≥ 1`);
  return value;
}
const N = option("n", 10_000);
const RUNS = option("runs", 10);
const dataAt = process.argv.indexOf("--data");
const keep = dataAt === -1 ? undefined : process.argv[dataAt + 1];

const random = seededRandom(7);
const WORDS = (
  "deploy release build staging production database cache queue worker gateway token session " +
  "billing invoice payment customer order schema migration index query latency timeout retry " +
  "alert metric dashboard trace service cluster container secret config flag feature rollout"
).split(" ");
const TYPES = ["rule", "fact", "episode", "procedure", "preference"];
const phrase = (n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");

async function api(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function fill(base: string): Promise<void> {
  let have = (await api(base, "GET", "/v1/stats"))["total_memories"] as number;
  while (have < N) {
    const memories = Array.from({ length: Math.min(1000, N - have) }, (_, i) => ({
      content: `${phrase(8)} #${have + i}`,
      type: TYPES[(have + i) % TYPES.length],
      scope: "permanent",
      project: `p${(have + i) % 20}`,
      tags: [`t${(have + i) % 7}`],
    }));
    await api(base, "POST", "/v1/remember/batch", { memories });
    have += memories.length;
  }
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return `p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms (${s.length} runs)`;
};

/**
 * Records, by the page's own clock, when the first table row is inserted (a MutationObserver
 * installed before the page's scripts run). Reading `performance.now()` after Playwright's
 * `waitForSelector` instead added its polling and round trips: 220-300 ms on this machine.
 */
const FIRST_ROW_OBSERVER = `new MutationObserver((_, observer) => {
  if (document.querySelector("#memories tbody tr") === null) return;
  window.__firstRowMs = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

/** Milliseconds from navigation start to the first table row, by the page's own clock. */
async function firstRow(page: Page): Promise<number> {
  await page.waitForSelector("#memories tbody tr", { state: "attached" });
  return Number(await page.evaluate("window.__firstRowMs"));
}

// A kept data directory (--data) stays; a fresh one is a temp dir removed at the end.
const svc = await startMemsvc({
  ...(keep === undefined ? {} : { dataDir: keep }),
  env: { MEMSVC_API_AUTH_TOKEN: TOKEN, MEMSVC_LOG_LEVEL: "warn" },
});
const base = svc.baseUrl;
try {
  await fill(base);
  const listMs: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await api(base, "GET", "/v1/memories?limit=50");
    listMs.push(performance.now() - t);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const cold: number[] = [];
  const warm: number[] = [];
  let pages: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    await context.addInitScript(`sessionStorage.setItem("memsvc.token", ${JSON.stringify(TOKEN)})`);
    await context.addInitScript(FIRST_ROW_OBSERVER);
    const page = await context.newPage();
    await page.goto(`${base}/ui`);
    cold.push(await firstRow(page));
    await page.reload();
    warm.push(await firstRow(page));
    if (run === 0) {
      pages = [];
      for (let n = 2; n <= 21; n++) {
        const t = performance.now();
        await page.click("#next-page");
        await page.waitForSelector(`#page-label:text-is("page ${n}")`);
        pages.push(performance.now() - t);
      }
    }
    await context.close();
  }
  const version = browser.version();
  await browser.close();
  const total = (await api(base, "GET", "/v1/stats"))["total_memories"];
  console.log(`memory browser, ${String(total)} memories, Chromium ${version}`);
  console.log(`  first row, cold cache:   ${stat(cold)}`);
  console.log(`  first row, warm cache:   ${stat(warm)}`);
  console.log(`  next page (click→shown): ${stat(pages)}`);
  console.log(`  GET /v1/memories?limit=50 from Node: ${stat(listMs)}`);
  console.log(
    `  load average: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await svc.stop();
  await cleanupMemsvc();
}
