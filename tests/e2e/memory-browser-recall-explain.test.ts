import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import type { RecallFactors } from "../../core/memory/model/types.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

/** Memories that answer the question, and some that do not. */
const MEMORIES = [
  { content: "Deploys to production happen on Tuesdays after the standup", type: "rule" },
  { content: "Production deploys need a green build and a second reviewer", type: "rule" },
  {
    content: "To deploy to production run make release then watch the dashboard",
    type: "procedure",
  },
  { content: "Deploys to staging happen on every merge to main", type: "fact" },
  { content: "The office plants are watered on Fridays", type: "fact" },
  { content: "Prefer tabs over spaces in Makefiles", type: "preference" },
].map((m) => ({ ...m, scope: "permanent" }));
const QUESTION = "how do we deploy to production?";

/** The factors as the service defines them (the page declares its own copy: it cannot import the core). */
type Factors = RecallFactors;
interface Item {
  id: string;
  type: string;
  score: number;
  tokens?: number;
  factors: Factors;
  context_of?: string;
}
interface Explained {
  context: string;
  memory_count: number;
  tokens_used: number;
  items: Item[];
  explain: {
    min_score: number;
    candidates: number;
    below_min_score: number;
    cut_by_budget: Item[];
  };
}

let svc: MemsvcProcess;
let browser: HeadlessChromium;

/** The factors line the page shows for an item. */
const factorLine = (f: Factors) =>
  (
    [
      ["rel", f.relevance],
      ["lex", f.lexical],
      ["sem", f.semantic],
      ["nbr", f.neighbour],
      ["rec", f.recency],
      ["freq", f.frequency],
      ["type", f.type],
      ["scope", f.scope],
      ["conf", f.confidence],
    ] as const
  )
    .map(([label, value]) => `${label} ${value.toFixed(2)}`)
    .join(" ");

describe.skipIf(!chromiumAvailable())(
  "the memory browser's recall preview explains each item, in headless Chromium (issue 22)",
  () => {
    beforeAll(async () => {
      // Context neighbours on: the conversation below brings the turns around its match.
      svc = await startMemsvc({ env: { MEMSVC_RECALL_CONTEXT_NEIGHBOURS: "1" } });
      const res = await fetch(`${svc.baseUrl}/v1/remember/batch`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ memories: MEMORIES }),
      });
      expect(res.status).toBe(200);
      browser = await launchChromium();
    });
    checkPagesThenClose(() => browser);

    it("shows each memory's score and factors beside its context line, and what the floor and the budget cut", async () => {
      // A budget one token short of what the whole answer needs: the budget cuts at least one.
      const full = (await (
        await fetch(`${svc.baseUrl}/v1/recall`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ message: QUESTION, items: true }),
        })
      ).json()) as Explained;
      expect(full.memory_count).toBeGreaterThanOrEqual(2);
      const budget = full.tokens_used - 1;

      const page = await browser.newPage({ width: 1440, height: 900 });
      await page.goto(`${svc.baseUrl}/ui`);
      await page.locator("#stats-total", { hasText: /^6$/ }).waitFor();
      await page.fill("#recall-message", QUESTION);
      await page.fill('#recall input[name="budget"]', String(budget));
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/v1/recall")),
        page.click('#recall button[type="submit"]'),
      ]);
      expect(response.request().postDataJSON()).toMatchObject({ explain: true, budget });
      const body = (await response.json()) as Explained;
      await page.locator("#recall-explain:not([hidden])").waitFor();
      expect(await page.textContent("#recall-context")).toBe(body.context);

      const { explain, items } = body;
      expect(items.length).toBe(body.memory_count);
      expect(explain.cut_by_budget.length).toBeGreaterThan(0);
      expect(await page.textContent("#recall-explain .why-summary")).toBe(
        `floor ${explain.min_score.toFixed(2)} · ${explain.candidates} candidates, ` +
          `${explain.below_min_score} below the floor, ${explain.cut_by_budget.length} cut by the budget`,
      );

      const rows = async (kind: string) =>
        page.locator(`#recall-explain li.${kind}`).evaluateAll((lis) =>
          lis.map((li) => ({
            id: li.getAttribute("data-id"),
            text: li.querySelector(".why-text")?.textContent,
            score: li.querySelector(".why-score")?.textContent,
            factors: li.querySelector(".why-factors")?.textContent?.trim(),
          })),
        );
      const lines = body.context.split("\n").slice(1);
      expect(await rows("included")).toEqual(
        items.map((item, i) => ({
          id: item.id,
          text: lines[i],
          score: item.score.toFixed(2),
          factors: factorLine(item.factors),
        })),
      );
      expect(await rows("cut")).toEqual(
        explain.cut_by_budget.slice(0, 5).map((item) => ({
          id: item.id,
          text: `[${item.type}] ${item.id.slice(0, 8)} · ${item.tokens} tokens`,
          score: item.score.toFixed(2),
          factors: factorLine(item.factors),
        })),
      );
      expect(
        await page
          .locator("#recall-explain abbr", { hasText: /^lex$/ })
          .first()
          .getAttribute("title"),
      ).toMatch(/^lexical: /);
      // Compact: it stays in the side panel, with no sideways scrolling.
      const panel = await page.locator("aside.side").boundingBox();
      const why = await page.locator("#recall-explain").boundingBox();
      expect(why !== null && panel !== null && why.x + why.width <= panel.x + panel.width).toBe(
        true,
      );
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(1440);
      await page.close();
    });

    it("marks a conversation turn that came as the context of a recalled one", async () => {
      const turns = [
        "Caroline: I went hiking at the lake trail last weekend",
        "Melanie: nice, was it crowded?",
        "Caroline: not at all",
      ].map((content) => ({ content, type: "episode", scope: "project", project: "chat" }));
      const res = await fetch(`${svc.baseUrl}/v1/remember/batch`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ memories: turns }),
      });
      const stored = ((await res.json()) as { memories: { id: string }[] }).memories;
      const page = await browser.newPage({ width: 1440, height: 900 });
      await page.goto(`${svc.baseUrl}/ui`);
      await page.fill("#recall-message", "where did Caroline go hiking?");
      await page.fill('#recall input[name="project"]', "chat");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith("/v1/recall")),
        page.click('#recall button[type="submit"]'),
      ]);
      const body = (await response.json()) as Explained;
      await page.locator("#recall-explain:not([hidden])").waitFor();
      const anchor = stored[0]?.id as string;
      expect(body.items.map((item) => item.context_of)).toEqual([undefined, anchor]);
      const marks = await page
        .locator("#recall-explain li.included")
        .evaluateAll((lis) => lis.map((li) => li.querySelector(".why-context")?.textContent ?? ""));
      expect(marks).toEqual(["", `around ${anchor.slice(0, 8)}`]);
      await page.close();
    });
  },
);
