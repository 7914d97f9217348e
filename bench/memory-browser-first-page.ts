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
 * Two controls, measured the same way in the same runs, say how much of that is Chromium rather
 * than the page: both are served by a plain `node:http` server in this process with the page's
 * own response headers (the same Content-Security-Policy and Cross-Origin-Opener-Policy, so the
 * same new renderer process on a new navigation) and its CSS and icon proxied from the service:
 *
 * - static rows: the page itself with the same first page of rows already in its HTML, no script
 *   and no API call: the floor for drawing this page;
 * - blank: a page of the same size with one row of text and no CSS or script: the floor for any
 *   page at all (navigation, renderer process, first paint).
 *
 * Run (after `npm run build`, with /usr/bin/chromium installed):
 *   npx tsx bench/memory-browser-first-page.ts [--n 10000] [--runs 10] [--data DIR] [--cpu-prof DIR]
 * `--data DIR` keeps the data directory and only adds what it lacks; `--cpu-prof DIR` writes the
 * service's V8 CPU profile there (read it with `bench/support/summarize-cpu-profile.ts`).
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/headless-chromium.js";
import { cleanupMemsvc, startMemsvc } from "../tests/support/spawn-memsvc.js";
import { seededRandom } from "./support/seeded-random.js";
import { intOption } from "./support/int-option.js";

const TOKEN = "bench-token";

function stringOption(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}
const N = intOption("n", 10_000);
const RUNS = intOption("runs", 10);
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

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c,
  );

/** A list answer's memories as the page renders them (same cells, classes and buttons). */
function rowsHtml(memories: readonly Record<string, unknown>[]): string {
  const when = (iso: unknown) =>
    typeof iso === "string" ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "never";
  return memories
    .map((m) => {
      const cells: [string, string, string?][] = [
        ["Content", String(m["content"]), "content"],
        ["Type", String(m["type"])],
        ["Scope", String(m["scope"])],
        ["Project", String(m["project"]) || "(none)"],
        ["Tags", (m["tags"] as string[]).join(", ")],
        ["Confidence", (m["confidence"] as number).toFixed(2), "num"],
        ["Created", when(m["created_at"])],
        ["Last accessed", when(m["last_accessed"])],
        ["Accesses", String(m["access_count"]), "num"],
        ["Expires", when(m["expires_at"])],
      ];
      const tds = cells
        .map(
          ([label, text, cls]) =>
            `<td data-label="${label}"${cls ? ` class="${cls}"` : ""}>${escapeHtml(text)}</td>`,
        )
        .join("");
      return `<tr data-id="${String(m["id"])}"><td class="select"><input type="checkbox"></td>${tds}<td class="actions"><button type="button" class="link" data-action="edit">Edit</button><button type="button" class="link danger-text" data-action="forget">Forget</button></td></tr>`;
    })
    .join("");
}

/**
 * The controls' server: `/static` is the page with its first page of rows in the HTML and no
 * script, `/blank` a page of the same size with one row; both with the page's own headers. Other
 * paths (the CSS, the icon) are fetched from the service with their headers.
 */
async function startControls(base: string): Promise<{ server: Server; url: string }> {
  const pageRes = await fetch(`${base}/ui`);
  const page = await pageRes.text();
  const headers: Record<string, string> = {};
  pageRes.headers.forEach((value, name) => {
    if (!["date", "content-length", "etag", "connection", "keep-alive"].includes(name))
      headers[name] = value;
  });
  const { memories } = (await api(base, "GET", "/v1/memories?limit=50")) as {
    memories: Record<string, unknown>[];
  };
  // Each edit must apply: a control page whose rows stay hidden or absent would never resolve.
  const edit = (html: string, from: RegExp, to: (match: string) => string): string => {
    if (!from.test(html)) throw new Error(`controls: the page no longer matches ${String(from)}`);
    return html.replace(from, to);
  };
  let withRows = edit(page, /<script[^>]*><\/script>\s*/, () => "");
  withRows = edit(withRows, /<main id="browser" hidden>/, () => '<main id="browser">');
  withRows = edit(withRows, /(<tbody[^>]*>)(<\/tbody>)/, (m) =>
    m.replace("></tbody>", () => `>${rowsHtml(memories)}</tbody>`),
  );
  const blankHead = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><table id="memories"><tbody><tr><td>blank</td></tr></tbody></table><!-- `;
  const blank = `${blankHead}${"x".repeat(Math.max(0, page.length - blankHead.length - 19))} --></body></html>`;
  const bodies = new Map([
    ["/static", withRows],
    ["/blank", blank],
  ]);
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? "");
    if (body !== undefined) {
      res.writeHead(200, headers).end(body);
      return;
    }
    void fetch(`${base}${req.url ?? "/"}`).then(async (upstream) => {
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!["date", "content-length", "connection", "keep-alive"].includes(name))
          out[name] = value;
      });
      res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
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
  const controls = await startControls(base);
  type Kind = "cold" | "warm" | "reload";
  const newLoads = (): Record<Kind, Load[]> => ({ cold: [], warm: [], reload: [] });
  const subjects = {
    page: { url: `${base}/ui`, loads: newLoads() },
    static: { url: `${controls.url}/static`, loads: newLoads() },
    blank: { url: `${controls.url}/blank`, loads: newLoads() },
  };
  const loads = subjects.page.loads;
  let pages: number[] = [];
  const servicePid = svc.child.pid as number;
  let serviceCpuMs = 0;
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order so that neither the page nor a control always goes first.
    const order = ["page", "static", "blank"] as const;
    for (const name of run % 2 === 0 ? order : [...order].reverse()) {
      const { url, loads: into } = subjects[name];
      const context = await browser.newContext();
      await context.addInitScript(
        `sessionStorage.setItem("memsvc.token", ${JSON.stringify(TOKEN)})`,
      );
      await context.addInitScript(FIRST_PAGE_OBSERVER);
      const page = await context.newPage();
      const cpuBefore = cpuMs(servicePid);
      await page.goto(url);
      into.cold.push(await firstPage(page));
      await page.goto("about:blank");
      await page.goto(url);
      into.warm.push(await firstPage(page));
      await page.reload();
      into.reload.push(await firstPage(page));
      if (name === "page") serviceCpuMs += cpuMs(servicePid) - cpuBefore;
      if (name === "page" && run === 0) {
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
  }
  controls.server.close();
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
  console.log(
    "  controls, same headers, node:http (first row painted; DOM interactive medians in brackets):",
  );
  for (const [name, label] of [
    ["static", "static rows (this page's HTML, CSS and rows; no script)"],
    ["blank", "blank (same size, one row, no CSS)"],
  ] as const) {
    const l = subjects[name].loads;
    for (const kind of ["cold", "warm", "reload"] as const) {
      console.log(
        `    ${label}, ${kind}: ${stat(l[kind].map((x) => x.painted))} [${median(l[kind].map((x) => x.interactive)).trim()}]`,
      );
    }
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
