/**
 * How fast the memory browser shows its first page, in Debian's Chromium, against a memsvc
 * holding N memories (default 10,000): starts `node dist/shells/memsvc/cli/memsvc.js serve` with
 * the embedded defaults and a token in a temp dir, loads N memories through the batch endpoint,
 * then, R times, opens `/ui` in a fresh browser context (token already in session storage):
 *
 * - cold: a new tab's first visit, empty HTTP cache;
 * - warm: the same tab opened again from `about:blank` (a new navigation, assets cached);
 * - reload: the browser's reload of that page.
 *
 * What counts is what a user sees: by the page's own clock, from navigation start to the first
 * page of rows on screen (in the table, the table visible) and painted (the first task after the
 * next animation frame, i.e. after that frame's paint). The page renders a whole page of rows in
 * one DOM update, so the first row is the first page. Medians of the steps on the way (HTML
 * received, DOM interactive, the list call as the browser saw it) say where the time went; the
 * service's CPU per page load comes from /proc. Then the time to page forward 20 times, and the
 * list call alone from Node. Prints the load average next to the figures: on a busy shared
 * machine the wall times are not the page's.
 *
 * Run (after `npm run build`, with /usr/bin/chromium installed):
 *   npx tsx bench/memory-browser-first-page.ts [--n 10000] [--runs 10] [--data DIR] [--cpu-prof DIR]
 * `--data DIR` keeps the data directory and only adds what it lacks; `--cpu-prof DIR` writes the
 * service's V8 CPU profile there (read it with `bench/support/summarize-cpu-profile.ts`).
 */
import { readFileSync } from "node:fs";
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
function stringOption(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}
const N = option("n", 10_000);
const RUNS = option("runs", 10);
const keep = stringOption("data");
const cpuProfDir = stringOption("cpu-prof");

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

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};
const stat = (xs: number[]) =>
  `p50 ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, max ${quantile(xs, 1).toFixed(0)} ms (${xs.length} runs)`;

/**
 * Installed before the page's scripts run: notes, by the page's own clock, when the first page of
 * rows is in the table while the table is visible (`shown`), and when the frame that draws it
 * has been painted (`painted`: a task queued from the next animation frame runs after that
 * frame's style, layout and paint), then resolves `window.__firstPage.done`. Visible means no
 * ancestor with the `hidden` attribute, the page's only way of hiding: a DOM walk, because
 * `checkVisibility()` or `getClientRects()` would force the table's layout inside the observer.
 * The bench awaits the promise rather than polling (Playwright's `waitForFunction` polls every
 * animation frame, which is work on the page's main thread while it loads); reading
 * `performance.now()` after `waitForSelector` added 220-300 ms of polling and round trips.
 */
const FIRST_PAGE_OBSERVER = `(() => {
  const marks = (window.__firstPage = {});
  marks.done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const row = document.querySelector("#memories tbody tr");
      if (row === null || row.closest("[hidden]") !== null) return;
      marks.shown = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve((marks.painted = performance.now()))));
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
  });
})();`;

/** One page load as the page's clock saw it, in ms from navigation start. */
interface Load {
  readonly html: number;
  readonly interactive: number;
  readonly listSent: number;
  readonly listDone: number;
  readonly shown: number;
  readonly painted: number;
}

/** Reads the marks and the navigation and list timings (an expression: the bench has no DOM types). */
const READ_LOAD = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const list = performance.getEntriesByType("resource").find((e) => e.name.includes("/v1/memories?"));
  return {
    html: nav.responseEnd,
    interactive: nav.domInteractive,
    listSent: list ? list.requestStart : NaN,
    listDone: list ? list.responseEnd : NaN,
    shown: window.__firstPage.shown,
    painted: window.__firstPage.painted,
  };
})()`;

async function firstPage(page: Page): Promise<Load> {
  await page.evaluate("window.__firstPage.done");
  return (await page.evaluate(READ_LOAD)) as Load;
}

/** utime + stime of a process, in ms (Linux /proc; clock ticks are 100 Hz here). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// A kept data directory (--data) stays; a fresh one is a temp dir removed at the end.
const svc = await startMemsvc({
  ...(keep === undefined ? {} : { dataDir: keep }),
  env: {
    MEMSVC_API_AUTH_TOKEN: TOKEN,
    MEMSVC_LOG_LEVEL: "warn",
  },
  ...(cpuProfDir === undefined ? {} : { nodeArgs: ["--cpu-prof", "--cpu-prof-dir", cpuProfDir] }),
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
  const loads: Record<"cold" | "warm" | "reload", Load[]> = { cold: [], warm: [], reload: [] };
  let pages: number[] = [];
  const servicePid = svc.child.pid as number;
  let serviceCpuMs = 0;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    await context.addInitScript(`sessionStorage.setItem("memsvc.token", ${JSON.stringify(TOKEN)})`);
    await context.addInitScript(FIRST_PAGE_OBSERVER);
    const page = await context.newPage();
    const cpuBefore = cpuMs(servicePid);
    await page.goto(`${base}/ui`);
    loads.cold.push(await firstPage(page));
    await page.goto("about:blank");
    await page.goto(`${base}/ui`);
    loads.warm.push(await firstPage(page));
    await page.reload();
    loads.reload.push(await firstPage(page));
    serviceCpuMs += cpuMs(servicePid) - cpuBefore;
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
  const serviceCpu = serviceCpuMs / (RUNS * 3);
  const version = browser.version();
  await browser.close();
  const total = (await api(base, "GET", "/v1/stats"))["total_memories"];
  const median = (xs: number[]) => quantile(xs, 0.5).toFixed(0).padStart(5);
  console.log(`memory browser, ${String(total)} memories, Chromium ${version}`);
  console.log(
    `  first page painted, cold (new tab, empty cache): ${stat(loads.cold.map((l) => l.painted))}`,
  );
  console.log(
    `  first page painted, warm (opened again, cached): ${stat(loads.warm.map((l) => l.painted))}`,
  );
  console.log(
    `  first page painted, reload:                      ${stat(loads.reload.map((l) => l.painted))}`,
  );
  console.log(
    "  medians, ms from navigation start:  HTML in  DOM interactive  list sent  list in  rows shown  painted",
  );
  for (const [name, xs] of Object.entries(loads)) {
    console.log(
      `    ${name.padEnd(33)} ${median(xs.map((l) => l.html))} ${median(xs.map((l) => l.interactive)).padStart(16)} ${median(xs.map((l) => l.listSent)).padStart(10)} ${median(xs.map((l) => l.listDone)).padStart(8)} ${median(xs.map((l) => l.shown)).padStart(11)} ${median(xs.map((l) => l.painted)).padStart(8)}`,
    );
  }
  console.log(`  next page (click→shown): ${stat(pages)}`);
  console.log(`  GET /v1/memories?limit=50 from Node: ${stat(listMs)}`);
  console.log(
    `  service CPU per page load (page, stats, list, assets): ${serviceCpu.toFixed(1)} ms`,
  );
  console.log(
    `  load average: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
} finally {
  await svc.stop();
  await cleanupMemsvc();
}
