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
const ids: string[] = [];

async function stored(id: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${svc.baseUrl}/v1/memories/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

async function openBrowser(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${svc.baseUrl}/ui`);
  await page.locator("#memories tbody tr").first().waitFor();
  return page;
}

/** A promise and the function that resolves it (Promise.withResolvers is Node 22). */
function heldUntilReleased(): { promise: Promise<void>; resolve: () => void } {
  let resolve: (() => void) | undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve: () => resolve?.() };
}

async function openEditor(page: Page, id: string) {
  await page.locator(`tr[data-id="${id}"] [data-action=edit]`).click();
  const form = page.locator("form.editor");
  await form.waitFor();
  return form;
}

describe.skipIf(!chromiumAvailable())("the memory browser when a change fails", () => {
  beforeAll(async () => {
    svc = await startMemsvc();
    for (const content of ["The build cache lives on the NAS", "Release notes go in CHANGES"]) {
      const res = await fetch(`${svc.baseUrl}/v1/remember`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content, type: "fact", confidence: 0.9 }),
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    browser = await launchChromium();
  });
  checkPagesThenClose(() => browser);

  it("does not save an emptied confidence field as a confidence of 0", async () => {
    const page = await openBrowser();
    const id = ids[0] as string;
    const form = await openEditor(page, id);
    await form.locator('textarea[name="content"]').fill("The build cache lives on the new NAS");
    await form.locator('[name="confidence"]').fill("");
    await form.locator('button[type="submit"]').click();
    // The browser refuses the form (the field is required) instead of sending confidence 0.
    expect(await form.locator('[name="confidence"]:invalid').count()).toBe(1);
    expect(await page.locator("form.editor").count()).toBe(1);
    expect(await stored(id)).toMatchObject({
      content: "The build cache lives on the NAS",
      confidence: 0.9,
    });
    await page.press('form.editor textarea[name="content"]', "Escape");
    await page.close();
  });

  it("sends one PATCH when Save is pressed again while the first is in flight", async () => {
    const page = await openBrowser();
    const id = ids[0] as string;
    let patches = 0;
    const { promise: held, resolve: release } = heldUntilReleased();
    await page.route(`**/v1/memories/${id}`, async (route) => {
      if (route.request().method() === "PATCH") {
        patches += 1;
        await held;
      }
      await route.continue();
    });
    const form = await openEditor(page, id);
    await form
      .locator('textarea[name="content"]')
      .fill("The build cache lives on the NAS, share B");
    // Two submissions in a row, as a double click or a second Enter gives.
    await form.evaluate((f: { requestSubmit(): void }) => {
      f.requestSubmit();
      f.requestSubmit();
    });
    await expect.poll(() => patches).toBe(1);
    expect(await form.locator('button[type="submit"]').isDisabled()).toBe(true);
    release();
    await page.locator("#status", { hasText: "Saved." }).waitFor();
    await page.waitForLoadState("networkidle");
    expect(patches).toBe(1);
    expect(await stored(id)).toMatchObject({
      content: "The build cache lives on the NAS, share B",
    });
    await page.close();
  });

  it("says the service did not answer when a forget or a save gets no answer, and keeps the edits", async () => {
    const page = await openBrowser();
    const id = ids[1] as string;
    await page.route(`**/v1/memories/${id}`, (route) => route.abort("connectionrefused"));

    await page.locator(`tr[data-id="${id}"] [data-action=forget]`).click();
    await page.locator("#confirm[open]").waitFor();
    await page.click("#confirm-ok");
    const refused = `memsvc did not answer DELETE /v1/memories/${id}: is it running and reachable?`;
    await page.locator("#status", { hasText: refused }).waitFor();
    expect(await page.locator("#status").getAttribute("data-kind")).toBe("error");

    const form = await openEditor(page, id);
    await form.locator('textarea[name="content"]').fill("Release notes go in CHANGELOG.md");
    await form.locator('button[type="submit"]').click();
    const unsaved = `memsvc did not answer PATCH /v1/memories/${id}: is it running and reachable?`;
    await form.locator(".error", { hasText: unsaved }).waitFor();
    expect(await form.locator('textarea[name="content"]').inputValue()).toBe(
      "Release notes go in CHANGELOG.md",
    );
    expect(await stored(id)).toMatchObject({ content: "Release notes go in CHANGES" });
    await page.close();
  });
});
