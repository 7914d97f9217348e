import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

/** Three memories without a project among four with one. */
const UNFILED = [
  { content: "The office wifi password rotates on the first Monday", scope: "permanent" },
  { content: "Always answer in British English", type: "rule", scope: "permanent" },
  { content: "The wifi guest network is called lobby", scope: "permanent", tags: ["wifi"] },
];
const FILED = [
  { content: "Shop deploys need the wifi VPN", project: "shop", scope: "project" },
  { content: "Shop prices are in cents", project: "shop", scope: "project" },
  { content: "Alpha uses PostgreSQL 15", project: "alpha", scope: "project" },
  { content: "Alpha wifi sensors report hourly", project: "alpha", scope: "project" },
];
const UNFILED_TEXTS = UNFILED.map((m) => m.content).sort();

let svc: MemsvcProcess;
let browser: HeadlessChromium;

/** Opens the page (the service has no token) once the counts are shown. */
async function openBrowser(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${svc.baseUrl}/ui`);
  await page.locator("#stats-total", { hasText: /^7$/ }).waitFor();
  return page;
}

const rowTexts = async (page: Page) =>
  (await page.locator("#memories tbody td.content").allTextContents()).sort();
const caption = (page: Page, text: string) =>
  page.locator("#table-caption", { hasText: text }).waitFor();

describe.skipIf(!chromiumAvailable())(
  "the memory browser's filter for memories without a project, in headless Chromium (issue 24)",
  () => {
    beforeAll(async () => {
      svc = await startMemsvc();
      const res = await fetch(`${svc.baseUrl}/v1/remember/batch`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ memories: [...UNFILED, ...FILED] }),
      });
      expect(res.status).toBe(200);
      browser = await launchChromium();
    });
    checkPagesThenClose(() => browser);

    it("offers (none) in the project picker and lists, counts and forgets only the memories without a project", async () => {
      const page = await openBrowser();
      const offered = (list: string) =>
        page
          .locator(`#${list} option`)
          .evaluateAll((options) =>
            options.map((o) => `${o.getAttribute("value")}: ${o.getAttribute("label")}`),
          );
      expect(await offered("filter-projects")).toEqual([
        "(none): 3 memories without a project",
        "alpha: 2 memories",
        "shop: 2 memories",
      ]);
      // The new-memory form offers real projects only.
      expect(await offered("known-projects")).toEqual(["alpha: 2 memories", "shop: 2 memories"]);

      await page.fill('#filters [name="project"]', "(none)");
      const [listed] = await Promise.all([
        page.waitForResponse((r) => r.url().includes("/v1/memories?")),
        page.click('#filters button[type="submit"]'),
      ]);
      expect(new URL(listed.url()).searchParams.get("project")).toBe("");
      await caption(page, "Memories where project = (none)");
      expect(await rowTexts(page)).toEqual(UNFILED_TEXTS);
      await page.locator("#stats-total", { hasText: /^3$/ }).waitFor();
      expect(await page.textContent("#stats-of")).toBe(" of 7");

      // Forget all matching counts the same three (cancelled here).
      await page.click("#forget-matching");
      await page.locator("#confirm[open]").waitFor();
      expect(await page.textContent("#confirm-text")).toBe(
        "Forget 3 memories matching project = (none)? They cannot be restored.",
      );
      await page.click('#confirm button[value="cancel"]');

      // A search under the filter keeps the hits without a project.
      await page.fill("#search-input", "wifi");
      await page.press("#search-input", "Enter");
      await caption(page, 'Search results for "wifi"');
      const hits = await rowTexts(page);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((text) => UNFILED_TEXTS.includes(text))).toBe(true);

      // Not asked, the listing is the seed's: every memory.
      const all = (await (await fetch(`${svc.baseUrl}/v1/memories`)).json()) as {
        memories: unknown[];
      };
      expect(all.memories).toHaveLength(7);
      await page.close();
    });

    it("filters by the (none) project chip, and drops the filter on a second click", async () => {
      const page = await openBrowser();
      const none = page.locator('#facet-project button.chip[data-value=""]');
      expect(await none.textContent()).toBe("(none) 3");
      await none.click();
      await caption(page, "Memories where project = (none)");
      expect(await rowTexts(page)).toEqual(UNFILED_TEXTS);
      expect(await page.inputValue('#filters [name="project"]')).toBe("(none)");
      await page
        .locator('#facet-project button.chip[data-value=""][aria-pressed="true"]')
        .waitFor();
      await page.locator('#facet-project button.chip[data-value=""]').click();
      await caption(page, "Memories, newest first");
      expect(await rowTexts(page)).toHaveLength(7);
      await page.close();
    });
  },
);
