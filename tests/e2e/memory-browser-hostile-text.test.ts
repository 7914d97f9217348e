import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const TOKEN = "browser-hostile-e2e-token-0123456789";
/** Markup that would set `window.__injected` if any of it ever ran. */
const MARKUP =
  '<img src=x onerror="window.__injected=1"><script>window.__injected=2</script>' +
  '<svg onload="window.__injected=3"></svg><a href="javascript:window.__injected=4">x</a>';
/** U+202E RIGHT-TO-LEFT OVERRIDE: the text after it is drawn reversed, up to the paragraph's end. */
const RLO = "\u202e";
const SPOOF = `Cache ${RLO}.enod`;
const SPOOF_TAG = `ops${RLO}x`;

let svc: MemsvcProcess;
let browser: HeadlessChromium;
const ids = new Map<string, string>();

async function remember(memory: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${svc.baseUrl}/v1/remember`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(memory),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function openBrowser(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(
    `${svc.baseUrl}/ui?q=${encodeURIComponent(MARKUP)}#${encodeURIComponent(MARKUP)}`,
  );
  await page.fill("#token-input", TOKEN);
  await page.press("#token-input", "Enter");
  await page.locator("#stats-total", { hasNotText: /^0$/ }).waitFor();
  await page.locator("#facet-tag .chip").first().waitFor();
  return page;
}

/**
 * Whether `words`, the page's own text inside `selector`, is drawn after (to the right of) the
 * stored text before it, as it would be with no bidi control in that stored text: the left edge
 * of the words' first character is at or beyond the right edge of everything before it.
 */
function drawnAfterWhatPrecedes(page: Page, selector: string, words: string): Promise<boolean> {
  return page.locator(selector).evaluate((element, words) => {
    const doc = element.ownerDocument;
    const walker = doc.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    const before = doc.createRange();
    before.setStart(element, 0);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const at = (node.nodeValue ?? "").indexOf(words);
      if (at < 0) continue;
      before.setEnd(node, at);
      const first = doc.createRange();
      first.setStart(node, at);
      first.setEnd(node, at + 1);
      const word = first.getBoundingClientRect();
      // Only what is drawn on the same line counts; a line break would prove nothing.
      const rights = [...before.getClientRects()]
        .filter((rect) => rect.width > 0 && rect.top < word.bottom && rect.bottom > word.top)
        .map((rect) => rect.right);
      if (rights.length === 0) throw new Error(`"${words}" starts a line: make the text shorter`);
      return word.left >= Math.max(...rights) - 0.5;
    }
    throw new Error(`"${words}" is not in ${element.outerHTML}`);
  }, words);
}

describe.skipIf(!chromiumAvailable())("the memory browser given hostile stored text", () => {
  beforeAll(async () => {
    svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
    ids.set(
      "markup",
      await remember({
        content: MARKUP,
        type: "fact",
        project: MARKUP.slice(0, 60),
        tags: [MARKUP.slice(0, 40)],
      }),
    );
    ids.set(
      "spoof",
      await remember({ content: SPOOF, type: "rule", project: "ops", tags: [SPOOF_TAG] }),
    );
    browser = await launchChromium();
  });
  checkPagesThenClose(() => browser);

  it("shows markup in content, project, tags, the URL, a search and a filter as text, never running it", async () => {
    const page = await openBrowser();
    const row = page.locator(`tr[data-id="${ids.get("markup")}"]`);
    expect(await row.locator("td.content").textContent()).toBe(MARKUP);
    expect(await page.locator("#facet-project .chip").allTextContents()).toContain(
      `${MARKUP.slice(0, 60)} 1`,
    );
    await page.fill("#search-input", MARKUP);
    await page.press("#search-input", "Enter");
    await page.locator("#table-caption", { hasText: "Search results for" }).waitFor();
    await page.click("#search-clear");
    await page.fill('#filters [name="project"]', MARKUP);
    await page.click('#filters button[type="submit"]');
    await page.locator("#empty", { hasText: "No memories match" }).waitFor();
    expect(await page.textContent("#empty")).toBe(`No memories match project = "${MARKUP}".`);
    expect(await page.evaluate("window.__injected")).toBeUndefined();
    expect(await page.locator("#browser img, #browser script, #browser svg[onload]").count()).toBe(
      0,
    );
    await page.close();
  });

  it("refuses on the token form a token with a character no header can carry, and keeps none", async () => {
    const page = await browser.newPage();
    await page.goto(`${svc.baseUrl}/ui`);
    // A zero-width space copied along with the token: fetch would throw on the header.
    await page.fill("#token-input", `${TOKEN}\u200b`);
    await page.press("#token-input", "Enter");
    await page
      .locator("#token-error", { hasText: "a character a header cannot carry" })
      .waitFor({ timeout: 5_000 });
    expect(await page.textContent("#token-error")).toBe(
      `This token has a character a header cannot carry (U+200B, character ${TOKEN.length + 1}): ` +
        "was something copied with it?",
    );
    expect(await page.locator("#browser").isVisible()).toBe(false);
    expect(await page.evaluate("sessionStorage.getItem('memsvc.token')")).toBeNull();
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await page.locator("#memories tbody tr").first().waitFor();
    await page.close();
  });

  it("keeps a stored text's right-to-left override from reversing the page's own words around it", async () => {
    const page = await openBrowser();
    // The tag's chip: its count stays after its name.
    const chip = `#facet-tag .chip[data-value="${SPOOF_TAG}"]`;
    expect(await page.textContent(chip)).toBe(`${SPOOF_TAG} 1`);
    expect(await drawnAfterWhatPrecedes(page, chip, "1")).toBe(true);

    // The confirmation quoting the memory: "It cannot be restored." stays readable.
    await page.locator(`tr[data-id="${ids.get("spoof")}"] [data-action=forget]`).click();
    await page.locator("#confirm[open]").waitFor();
    expect(await page.textContent("#confirm-text")).toBe(
      `Forget this memory? "${SPOOF}" It cannot be restored.`,
    );
    expect(await drawnAfterWhatPrecedes(page, "#confirm-text", "It cannot be restored.")).toBe(
      true,
    );
    await page.click("#confirm button[value=cancel]");

    // A chip's value in the caption, the empty state and the "forget all matching" question.
    await page.click(chip);
    const caption = `Memories where tag = "${SPOOF_TAG}"`;
    await page.locator("#table-caption", { hasText: caption }).waitFor();
    await page.click("#forget-matching");
    await page.locator("#confirm[open]").waitFor();
    expect(await page.textContent("#confirm-text")).toBe(
      `Forget 1 memories matching tag = "${SPOOF_TAG}"? They cannot be restored.`,
    );
    expect(await drawnAfterWhatPrecedes(page, "#confirm-text", "? They cannot")).toBe(true);
    await page.click("#confirm button[value=cancel]");
    expect(await page.locator(`tr[data-id="${ids.get("spoof")}"]`).count()).toBe(1);
    await page.close();
  });
});
