import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const TOKEN = "browser-e2e-token-0123456789";
const TYPES = ["rule", "fact", "episode", "procedure", "preference"] as const;
const ANIMALS = ["otter", "heron", "badger", "lynx", "wren", "marten", "ibis", "stoat"];

/** Sixty filler memories spread over types, scopes, projects and tags, plus a few real ones. */
const FILLERS = Array.from({ length: 60 }, (_, i) => ({
  content: `Field note ${i}: the ${ANIMALS[i % ANIMALS.length]} was seen near marker ${i * 7}`,
  type: TYPES[i % 5],
  scope: i % 2 === 0 ? "permanent" : "project",
  project: i % 2 === 0 ? "alpha" : "beta",
  tags: [`t${i % 3}`],
}));
const DEPLOY = "Deploys to production happen on Tuesdays after the standup";
const ROTATE = "To rotate the API key: create a new one, deploy, then revoke the old one";
const SPECIALS = [
  { content: DEPLOY, type: "rule", scope: "project", project: "shop", tags: ["deploy"] },
  { content: ROTATE, type: "procedure", scope: "permanent", project: "shop", tags: ["security"] },
  { content: "The staging database is read-only for developers", type: "fact", project: "shop" },
  { content: "Forget me first: the old VPN host is vpn1", type: "fact", project: "shop" },
  { content: "Forget me too: the old VPN port is 1194", type: "fact", project: "shop" },
  { content: "Forget me three: the old VPN user is ops", type: "fact", project: "shop" },
];

let svc: MemsvcProcess;
let browser: HeadlessChromium;
const ids = new Map<string, string>();

async function rest(method: string, path: string, body?: unknown) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${TOKEN}` } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const res = await fetch(`${svc.baseUrl}${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Opens the page and gets past the token prompt; resolves once the stats are shown. */
async function openBrowser(path = "/ui"): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${svc.baseUrl}${path}`);
  await page.fill("#token-input", TOKEN);
  await page.press("#token-input", "Enter");
  await page.locator("#stats-total", { hasNotText: /^0$/ }).waitFor();
  return page;
}

const rowTexts = (page: Page) => page.locator("#memories tbody td.content").allTextContents();

const rowIds = (page: Page) =>
  page
    .locator("#memories tbody tr[data-id]")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id") ?? ""));
const column = (page: Page, label: string) =>
  page.locator(`#memories tbody td[data-label="${label}"]`).allTextContents();

/** Applies the filter form and waits for the table to show the filtered listing. */
async function filter(page: Page, fields: Record<string, string>): Promise<void> {
  const all = { project: "", type: "", scope: "", tag: "", q: "", ...fields };
  for (const [name, value] of Object.entries(all)) {
    const field = page.locator(`#filters [name="${name}"]`);
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  await page.click('#filters button[type="submit"]');
  // The caption names the filters once this listing is on screen (not an earlier one).
  const described = Object.entries(all)
    .filter(([, value]) => value !== "")
    .map(([name, value]) => `${name} = "${value}"`)
    .join(", ");
  await page.locator("#table-caption", { hasText: `Memories where ${described}` }).waitFor();
}

async function search(page: Page, message: string): Promise<void> {
  await page.fill("#search-input", message);
  await page.press("#search-input", "Enter");
  await page.locator("#table-caption", { hasText: `Search results for "${message}"` }).waitFor();
}

const skip = !chromiumAvailable();

describe.skipIf(skip)("the memory browser in headless Chromium", () => {
  beforeAll(async () => {
    svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
    const all = [...FILLERS, ...SPECIALS];
    const stored = await rest("POST", "/v1/remember/batch", { memories: all });
    expect(stored.status).toBe(200);
    const answers = stored.body["memories"] as { id: string }[];
    all.forEach((m, i) => ids.set(m.content, answers[i]?.id ?? ""));
    browser = await launchChromium();
  });
  checkPagesThenClose(() => browser);

  it("asks for the token, refuses a wrong one, and keeps the right one in session storage only", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${svc.baseUrl}/ui`);
    expect(response?.status()).toBe(200);
    await expect(page.locator("#gate").isVisible()).resolves.toBe(true);
    await expect(page.locator("#browser").isVisible()).resolves.toBe(false);

    await page.fill("#token-input", "not-the-token");
    await page.press("#token-input", "Enter");
    await page.locator("#token-error", { hasText: "Wrong token" }).waitFor();
    expect(await page.textContent("#token-error")).toBe("Wrong token (invalid bearer token).");
    expect(await page.evaluate("sessionStorage.getItem('memsvc.token')")).toBeNull();

    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await page.locator("#browser").waitFor();
    expect(await page.evaluate("sessionStorage.getItem('memsvc.token')")).toBe(TOKEN);
    expect(await page.evaluate("document.cookie")).toBe("");
    expect(page.url()).toBe(`${svc.baseUrl}/ui`);
    // The stats come after the first page of rows (at the first idle moment once it is drawn).
    const count = String(FILLERS.length + SPECIALS.length);
    await page.locator("#stats-total", { hasText: new RegExp(`^${count}$`) }).waitFor();

    // A reload in the same tab opens without asking again; "Forget token" asks again.
    await page.reload();
    await page.locator("#browser").waitFor();
    await page.click("#sign-out");
    await page.locator("#gate").waitFor();
    expect(await page.evaluate("sessionStorage.getItem('memsvc.token')")).toBeNull();
    await page.close();
  });

  it("serves the page with a strict CSP, no inline script, and asset types the browser accepts", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${svc.baseUrl}/ui`);
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(await page.locator("script:not([src])").count()).toBe(0);
    expect(await page.locator("[style]").count()).toBe(0);
    // The modules ran (the token form is wired), which needs a JavaScript content type.
    await page.locator("#gate").waitFor();
    // The browser enforces the policy: a string cannot reach an HTML sink, nor run as a script.
    await expect(page.evaluate("document.body.innerHTML = '<img src=x>'")).rejects.toThrow(
      /TrustedHTML/,
    );
    await expect(
      page.evaluate(
        "const s = document.createElement('script'); s.textContent = 'window.ran = true'; document.head.append(s)",
      ),
    ).rejects.toThrow(/TrustedScript/);
    expect(await page.evaluate("'ran' in window")).toBe(false);
    browser.problems.length = 0; // those two violations were the point of this test
    await page.close();
  });

  it("searches with the service's search, ranked, from the keyboard", async () => {
    const page = await openBrowser();
    await page.keyboard.press("/");
    expect(await page.evaluate("document.activeElement?.id")).toBe("search-input");
    await page.keyboard.type("deploy to production");
    await page.keyboard.press("Enter");
    await page.locator("#table-caption", { hasText: "Search results" }).waitFor();
    const texts = await rowTexts(page);
    expect(texts[0]).toBe(DEPLOY);
    const scores = (
      await page.locator('#memories tbody td[data-label="Score"]').allTextContents()
    ).map(Number);
    expect(scores.length).toBe(texts.length);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    await page.close();
  });

  it("lists memories newest first and pages through all of them with the cursor", async () => {
    const page = await openBrowser();
    const total = (await rest("GET", "/v1/stats")).body["total_memories"] as number;
    await page.selectOption("#page-size", "25");
    await page.locator("#load-info", { hasText: /^25 shown/ }).waitFor();
    const first = await rowIds(page);
    expect(first).toHaveLength(25);
    // Exposed as a table whatever its CSS display: a header row and 25 rows of 11 cells.
    const table = page.getByRole("table");
    expect(await table.getByRole("row").count()).toBe(26);
    expect(await table.getByRole("columnheader").count()).toBe(11);
    expect(await table.getByRole("row").nth(1).getByRole("cell").count()).toBe(11);
    const created = await column(page, "Created");
    expect([...created].sort().reverse()).toEqual(created);
    const seen = [...first];
    let pages = 1;
    while (!(await page.locator("#next-page").isDisabled())) {
      await page.click("#next-page");
      await page.locator("#page-label", { hasText: `page ${++pages}` }).waitFor();
      seen.push(...(await rowIds(page)));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    // Back, one page at a time, waiting for each (Previous stays enabled while a page loads).
    for (let n = pages - 1; n >= 1; n--) {
      await page.click("#prev-page");
      await page.locator("#page-label", { hasText: `page ${n}` }).waitFor();
    }
    expect(await page.locator("#prev-page").isDisabled()).toBe(true);
    expect(await rowIds(page)).toEqual(first);
    await page.close();
  });

  it("filters by project, type, scope, tag and content", async () => {
    const page = await openBrowser();
    const cases: [Record<string, string>, (m: (typeof FILLERS)[number]) => boolean][] = [
      [{ project: "alpha", type: "rule" }, (m) => m.project === "alpha" && m.type === "rule"],
      [{ scope: "project", tag: "t1" }, (m) => m.scope === "project" && m.tags.includes("t1")],
      [{ q: "MARKER 7" }, (m) => m.content.includes("marker 7")],
    ];
    for (const [fields, matches] of cases) {
      await filter(page, fields);
      const expected = FILLERS.filter(matches).map((m) => m.content);
      expect((await rowTexts(page)).sort(), JSON.stringify(fields)).toEqual(expected.sort());
    }
    await filter(page, { project: "alpha", type: "rule" });
    expect(new Set(await column(page, "Type"))).toEqual(new Set(["rule"]));
    expect(new Set(await column(page, "Project"))).toEqual(new Set(["alpha"]));
    await page.close();
  });

  it("edits a memory in place and keeps its creation time; Escape changes nothing", async () => {
    const page = await openBrowser();
    const id = ids.get(ROTATE) as string;
    const before = (await rest("GET", `/v1/memories/${id}`)).body;
    await filter(page, { q: "rotate the API key" });
    const row = page.locator(`#memories tbody tr[data-id="${id}"]`);
    await row.locator('[data-action="edit"]').click();
    const form = page.locator("tr.editing form");
    await form.locator('[name="content"]').fill(`${ROTATE}, within one hour`);
    await form.locator('[name="tags"]').fill("security, keys");
    await form.locator('[name="confidence"]').fill("0.8");
    await form.locator('[name="type"]').selectOption("rule");
    await form.locator('button[type="submit"]').click();
    await page.locator("#status", { hasText: "Saved." }).waitFor();
    await row.locator("td.content", { hasText: "within one hour" }).waitFor();
    const after = (await rest("GET", `/v1/memories/${id}`)).body;
    expect(after).toMatchObject({
      content: `${ROTATE}, within one hour`,
      tags: ["security", "keys"],
      confidence: 0.8,
      type: "rule",
      created_at: before["created_at"],
    });

    await row.locator('[data-action="edit"]').click();
    await form.locator('[name="content"]').fill("this edit is abandoned");
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "detached" });
    expect((await rest("GET", `/v1/memories/${id}`)).body["content"]).toBe(
      `${ROTATE}, within one hour`,
    );
    await page.close();
  });

  it("forgets every memory matching a filter after confirming the counted number", async () => {
    const page = await openBrowser();
    const total = (await rest("GET", "/v1/stats")).body["total_memories"] as number;
    const beta = FILLERS.filter((m) => m.project === "beta").length;
    await filter(page, { project: "beta" });
    await page.click("#forget-matching");
    await page.locator("#confirm[open]").waitFor();
    expect(await page.textContent("#confirm-text")).toBe(
      `Forget ${beta} memories matching project = "beta"? They cannot be restored.`,
    );
    await page.click("#confirm-ok");
    await page.locator("#status", { hasText: `Forgot ${beta} memories.` }).waitFor();
    await page.locator("#empty", { hasText: 'No memories match project = "beta".' }).waitFor();
    expect((await rest("GET", "/v1/stats")).body["total_memories"]).toBe(total - beta);
    // The counts follow the filter: none match any more, out of what is left.
    await page.locator("#stats-of", { hasText: ` of ${total - beta}` }).waitFor();
    expect(await page.textContent("#stats-total")).toBe("0");
    await page.close();
  });

  it("shows the empty state, without asking for a token, on a service with no memories and no token", async () => {
    const empty = await startMemsvc();
    const page = await browser.newPage();
    await page.goto(`${empty.baseUrl}/ui`);
    await page.locator("#empty", { hasText: "No memories yet" }).waitFor();
    expect(await page.locator("#gate").isVisible()).toBe(false);
    expect(await page.textContent("#stats-total")).toBe("0");
    expect(await page.locator("#memories").isVisible()).toBe(false);
    expect(await page.locator("#next-page").isDisabled()).toBe(true);
    await page.close();
    await empty.stop();
  });

  it("previews recall: the exact context the service answers and the tokens it used", async () => {
    const page = await openBrowser();
    for (const budget of [2000, 20]) {
      await page.fill("#recall-message", "when do deploys to production happen?");
      await page.fill('#recall input[name="budget"]', String(budget));
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/v1/recall")),
        page.click('#recall button[type="submit"]'),
      ]);
      const body = (await answer.json()) as {
        context: string;
        memory_count: number;
        tokens_used: number;
      };
      const summary = `${body.memory_count} ${body.memory_count === 1 ? "memory" : "memories"}, ${body.tokens_used} of ${budget} tokens used`;
      await page.locator("#recall-summary", { hasText: summary }).waitFor();
      expect(body.tokens_used).toBeLessThanOrEqual(budget);
      expect(await page.textContent("#recall-context")).toBe(body.context || "(empty context)");
      if (budget === 2000) expect(body.context).toContain(DEPLOY);
    }
    await page.close();
  });

  it("forgets a memory only after confirmation; Cancel keeps it", async () => {
    const page = await openBrowser();
    const content = "Forget me first: the old VPN host is vpn1";
    const id = ids.get(content) as string;
    await search(page, "old VPN host vpn1");
    const row = page.locator(`#memories tbody tr[data-id="${id}"]`);
    await row.locator('[data-action="forget"]').click();
    await page.locator("#confirm[open]").waitFor();
    expect(await page.textContent("#confirm-text")).toContain(content);
    await page.keyboard.press("Escape");
    await page.locator("#confirm[open]").waitFor({ state: "detached" });
    expect((await rest("GET", `/v1/memories/${id}`)).status).toBe(200);

    await row.locator('[data-action="forget"]').click();
    await page.click("#confirm-ok");
    await page.locator("#status", { hasText: "Forgotten." }).waitFor();
    await row.waitFor({ state: "detached" });
    expect((await rest("GET", `/v1/memories/${id}`)).status).toBe(404);
    await page.close();
  });

  it("forgets the selected memories after one confirmation", async () => {
    const page = await openBrowser();
    const chosen = [
      "Forget me too: the old VPN port is 1194",
      "Forget me three: the old VPN user is ops",
    ].map((c) => ids.get(c) as string);
    await search(page, "old VPN port user");
    for (const id of chosen) {
      await page.locator(`#memories tbody tr[data-id="${id}"] td.select input`).check();
    }
    expect(await page.textContent("#forget-selected")).toBe("Forget 2 selected");
    await page.click("#forget-selected");
    expect(await page.textContent("#confirm-text")).toContain("Forget 2 selected memories?");
    await page.click("#confirm-ok");
    await page.locator("#status", { hasText: "Forgot 2 memories." }).waitFor();
    for (const id of chosen) expect((await rest("GET", `/v1/memories/${id}`)).status).toBe(404);
    await page.close();
  });

  it("stays readable at phone width: no sideways scrolling, one card per memory", async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await search(page, "deploy");
    const width = await page.evaluate("document.documentElement.scrollWidth");
    expect(width).toBeLessThanOrEqual(390);
    const display = await page
      .locator("#memories tbody tr")
      .first()
      .evaluate((row) => row.ownerDocument.defaultView?.getComputedStyle(row).display);
    expect(display).toBe("block");
    await page.close();
  });

  it("at 1440×900 shows the table, its count and the recall preview without scrolling", async () => {
    const page = await browser.newPage({ width: 1440, height: 900 });
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await page.locator("#load-info", { hasText: /shown$/ }).waitFor();
    expect(await page.textContent("#load-info")).toMatch(/^\d+ shown$/);
    const inView = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => {
          const box = element.getBoundingClientRect();
          const view = element.ownerDocument.documentElement;
          return (
            box.top >= 0 &&
            box.top < view.clientHeight &&
            box.left >= 0 &&
            box.right <= view.clientWidth
          );
        });
    expect(await inView("#recall")).toBe(true);
    expect(await inView("#create")).toBe(true);
    expect(await inView("#load-info")).toBe(false); // the pager follows the rows…
    const rowsInView = await page
      .locator("#memories tbody tr")
      .evaluateAll(
        (rows) =>
          rows.filter(
            (row) =>
              row.getBoundingClientRect().bottom <= row.ownerDocument.documentElement.clientHeight,
          ).length,
      );
    expect(rowsInView).toBeGreaterThanOrEqual(10); // …and at least ten rows come first
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(1440);
    await page.close();
  });

  it("at 900 px wide, Edit and Forget are on screen without scrolling sideways", async () => {
    const page = await browser.newPage({ width: 900, height: 800 });
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    const edit = page.locator("#memories tbody tr [data-action=edit]").first();
    await edit.waitFor();
    const box = await edit.boundingBox();
    expect(box !== null && box.x + box.width <= 900).toBe(true);
    await page.close();
  });

  it("creates a memory, says so for a moment, and offers known projects in the pickers", async () => {
    const page = await openBrowser();
    await page.fill("#create-content", "The release train leaves every second Thursday");
    await page.selectOption('#create [name="type"]', "rule");
    await page.fill('#create [name="project"]', "shop");
    await page.fill('#create [name="tags"]', "release, ");
    await page.click('#create button[type="submit"]');
    await page.locator("#status", { hasText: "Remembered." }).waitFor();
    const stored = (
      await rest("POST", "/v1/search", {
        message: "release train second Thursday",
        include: ["tags", "project"],
      })
    ).body["results"] as { memory: { content: string; tags: string[]; project: string } }[];
    expect(stored[0]?.memory).toMatchObject({
      content: "The release train leaves every second Thursday",
      tags: ["release"],
      project: "shop",
    });
    await page.locator("#status", { hasText: /^$/ }).waitFor({ timeout: 8_000 }); // clears itself
    const projects = await page
      .locator("#known-projects option")
      .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    expect(projects).toContain("shop");
    await page.close();
  });

  it("sorts the rows by a column both ways, and shows relative times with the absolute on hover", async () => {
    const page = await openBrowser();
    await filter(page, { project: "alpha" });
    await page.click('#memories thead button.sort:text-is("Confidence")');
    const up = (await column(page, "Confidence")).map(Number);
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await page.click('#memories thead button.sort:text-is("Confidence")');
    const down = (await column(page, "Confidence")).map(Number);
    expect(down).toEqual([...down].sort((a, b) => b - a));
    const created = page.locator('#memories tbody td[data-label="Created"]').first();
    expect(await created.textContent()).toMatch(/^(just now|\d+ (min|h|d) ago)$/);
    expect(await created.getAttribute("title")).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await page.close();
  });

  it("offers the TTL field only for scope ttl when editing", async () => {
    const page = await openBrowser();
    await search(page, "staging database read-only");
    await page.locator("#memories tbody tr [data-action=edit]").first().click();
    const ttl = page.locator('.editor input[name="ttl_seconds"]');
    expect(await ttl.isVisible()).toBe(false);
    await page.selectOption('.editor select[name="scope"]', "ttl");
    expect(await ttl.isVisible()).toBe(true);
    await page.press(".editor textarea", "Escape");
    await page.close();
  });

  it("exports every memory as NDJSON and imports a file", async () => {
    const page = await openBrowser();
    const total = (await rest("GET", "/v1/stats")).body["total_memories"] as number;
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
    const path = await download.path();
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(total);
    await page.setInputFiles("#import-file", {
      name: "more.ndjson",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(
        `${JSON.stringify({ content: "Imported through the page", type: "fact" })}\n`,
      ),
    });
    await page.locator("#status", { hasText: "Imported 1, merged 0, rejected 0." }).waitFor();
    await page.close();
  });

  it("follows the system's dark mode, the counts' chips included (issue 24)", async () => {
    const page = await openBrowser();
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e) => e.ownerDocument.defaultView?.getComputedStyle(e).color ?? "");
    const background = () =>
      page
        .locator("body")
        .evaluate((e) => e.ownerDocument.defaultView?.getComputedStyle(e).backgroundColor ?? "");
    const colours = async () => ({
      body: await background(),
      chip: await colour("#facet-project .chip"),
    });
    await page.emulateMedia({ colorScheme: "light" });
    expect(await colours()).toEqual({ body: "rgb(246, 247, 249)", chip: "rgb(29, 35, 48)" });
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await colours()).toEqual({ body: "rgb(20, 23, 28)", chip: "rgb(228, 231, 236)" });
    await page.close();
  });

  it("counts what the filters select, by project and tag too, and picks from the store's values (issue 24)", async () => {
    // An old memory: it sorts last, so the first page (50 of 60+) does not load it.
    const res = await fetch(`${svc.baseUrl}/v1/import`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/x-ndjson" },
      body: `${JSON.stringify({
        content: "The 2019 archive lives on tape",
        scope: "permanent",
        project: "archive-2019",
        tags: ["legacy"],
        created_at: "2019-06-01T00:00:00.000Z",
      })}\n`,
    });
    expect(await res.json()).toMatchObject({ imported: 1 });
    const stats = async (query: string) =>
      (await rest("GET", `/v1/stats${query}`)).body as { total_memories: number };
    const total = (await stats("")).total_memories;
    expect(total).toBeGreaterThan(25);
    const page = await openBrowser();
    await page.locator("#stats-total", { hasText: new RegExp(`^${total}$`) }).waitFor();
    await page.selectOption("#page-size", "25");
    await page.locator("#load-info", { hasText: /^25 shown$/ }).waitFor();
    expect(await rowTexts(page)).not.toContain("The 2019 archive lives on tape");
    const offered = (list: string) =>
      page
        .locator(`#${list} option`)
        .evaluateAll((options) => options.map((o) => o.getAttribute("value")));
    expect(await offered("known-projects")).toContain("archive-2019");
    expect(await offered("known-tags")).toContain("legacy");

    const chips = async (query: string) => {
      const body = (await rest("GET", `/v1/stats?${query}&top=6`)).body as {
        by_project: { values: { value: string; count: number }[] };
      };
      return body.by_project.values.map(({ value, count }) => `${value || "(none)"} ${count}`);
    };
    await filter(page, { tag: "t0" });
    const t0 = (await stats("?tag=t0")).total_memories;
    await page.locator("#stats-total", { hasText: new RegExp(`^${t0}$`) }).waitFor();
    expect(await page.textContent("#stats-of")).toBe(` of ${total}`);
    expect(await page.locator("#facet-project .chip").allTextContents()).toEqual(
      await chips("tag=t0"),
    );

    await page.click('#facet-project button.chip[data-value="alpha"]');
    await page
      .locator("#table-caption", { hasText: 'Memories where project = "alpha", tag = "t0"' })
      .waitFor();
    const alpha = (await stats("?tag=t0&project=alpha")).total_memories;
    expect(alpha).toBeGreaterThan(0);
    await page.locator("#stats-total", { hasText: new RegExp(`^${alpha}$`) }).waitFor();
    expect(await page.locator("#facet-tag .chip").allTextContents()).toEqual([`t0 ${alpha}`]);
    expect(
      await page
        .locator('#facet-project button.chip[data-value="alpha"]')
        .getAttribute("aria-pressed"),
    ).toBe("true");
    await page.close();
  });
});
