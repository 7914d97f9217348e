import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

let svc: MemsvcProcess;
let browser: HeadlessChromium;
let longId = "";

/** What has the focus: its tag, id, accessible-ish name and the outline drawn around it. */
interface Focused {
  tag: string;
  id: string;
  name: string;
  outline: string;
}

/** Presses Tab from the top of the page until the focus leaves it, noting each stop. */
async function tabThrough(page: Page): Promise<Focused[]> {
  await page.locator("body").focus();
  const stops: Focused[] = [];
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(`(() => {
      const e = document.activeElement;
      const style = getComputedStyle(e);
      const name = e.getAttribute("aria-label") ?? (e.labels?.[0] ?? e).textContent;
      return {
        tag: e.tagName.toLowerCase(),
        id: e.id,
        name: name.trim().replace(/\\s+/g, " "),
        outline: style.outlineStyle + " " + style.outlineWidth,
      };
    })()`);
    if ((stop as Focused).tag === "body") return stops;
    stops.push(stop as Focused);
  }
  throw new Error("Tab never left the page");
}

describe.skipIf(!chromiumAvailable())("the memory browser from the keyboard alone", () => {
  beforeAll(async () => {
    svc = await startMemsvc();
    const long = `A long note: ${"every word of it matters to someone ".repeat(40)}`;
    for (const content of ["Keyboard note one", long, "Keyboard note two"]) {
      const res = await fetch(`${svc.baseUrl}/v1/remember`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content, type: "fact", project: "keys", tags: ["k"] }),
      });
      expect(res.status).toBe(200);
      if (content === long) longId = ((await res.json()) as { id: string }).id;
    }
    browser = await launchChromium();
  });
  checkPagesThenClose(() => browser);

  async function openBrowser(): Promise<Page> {
    const page = await browser.newPage({ width: 1440, height: 900 });
    await page.goto(`${svc.baseUrl}/ui`);
    await page.locator("#memories tbody tr").first().waitFor();
    await page.locator("#facet-tag .chip").first().waitFor();
    return page;
  }

  it("reaches Import… with Tab and opens the file picker with Enter", async () => {
    const page = await openBrowser();
    const stops = await tabThrough(page);
    const names = stops.map((stop) => stop.name);
    expect(names.indexOf("Import…")).toBe(names.indexOf("Export") + 1);
    // The hidden file field's click is what opens the picker: noted and stopped there (racing a
    // native picker against Playwright's file chooser interception proved flaky under load).
    await page.evaluate(`document.getElementById("import-file").addEventListener("click", (event) => {
      window.__pickerOpened = true;
      event.preventDefault();
    })`);
    await page.focus("#export");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.id")).toBe("import");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate("window.__pickerOpened")).toBe(true);
    await page.setInputFiles("#import-file", {
      name: "one.ndjson",
      mimeType: "application/x-ndjson",
      buffer: Buffer.from(`${JSON.stringify({ content: "Imported by keyboard", type: "fact" })}\n`),
    });
    await page.locator("#status", { hasText: "Imported 1, merged 0, rejected 0." }).waitFor();
    await page.close();
  });

  it("shows a row's whole content while the keyboard's focus is in that row", async () => {
    const page = await openBrowser();
    const row = page.locator(`#memories tbody tr[data-id="${longId}"]`);
    const height = () => row.locator("td.content").evaluate((cell) => cell.clientHeight);
    const clamped = await height();
    await page.focus("#memories thead input[type=checkbox]");
    await page.keyboard.press("Tab"); // the first column header
    while (!(await row.locator("input[type=checkbox]").evaluate((box) => box.matches(":focus")))) {
      await page.keyboard.press("Tab");
    }
    expect(await height()).toBeGreaterThan(clamped * 2);
    await page.keyboard.press("Tab"); // Edit, same row
    expect(await height()).toBeGreaterThan(clamped * 2);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab"); // the next row's checkbox
    expect(await height()).toBe(clamped);
    await page.close();
  });

  it("puts the focus back on the row after a save or a forget, not on the page's top", async () => {
    const page = await openBrowser();
    const focused = () =>
      page.evaluate(`(() => {
        const e = document.activeElement;
        return (e.closest("tr[data-id]")?.dataset.id ?? "") + " " + (e.dataset.action ?? e.tagName);
      })()`);
    const ids = await page
      .locator("#memories tbody tr[data-id]")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id") ?? ""));
    const [first, second] = ids;

    // Edit the first row from the keyboard and save with Enter in a field.
    await page.focus(`tr[data-id="${first}"] [data-action=edit]`);
    await page.keyboard.press("Enter");
    await page.locator("form.editor").waitFor();
    await page.focus('form.editor input[name="project"]');
    await page.keyboard.type("-renamed");
    await page.keyboard.press("Enter");
    await page.locator("#status", { hasText: "Saved." }).waitFor();
    await page.locator("form.editor").waitFor({ state: "detached" });
    await expect.poll(focused).toBe(`${first} edit`);

    // Forget it: the row now in its place has the focus, on its Forget button.
    await page.keyboard.press("Tab"); // its Forget
    await page.keyboard.press("Enter");
    await page.locator("#confirm[open]").waitFor();
    await page.keyboard.press("Tab"); // from Cancel to Forget
    await page.keyboard.press("Enter");
    await page.locator("#status", { hasText: "Forgotten." }).waitFor();
    await page.locator(`tr[data-id="${first}"]`).waitFor({ state: "detached" });
    await expect.poll(focused).toBe(`${second} forget`);
    await page.close();
  });

  it("draws a visible focus outline on every control Tab stops at, the column headers too", async () => {
    const page = await openBrowser();
    const stops = await tabThrough(page);
    expect(stops.map((stop) => stop.name)).toEqual(
      expect.arrayContaining(["Content", "Confidence", "Edit", "Forget", "Remember", "Preview"]),
    );
    expect(stops.filter((stop) => !stop.outline.startsWith("solid"))).toEqual([]);
    await page.close();
  });
});
