import { afterAll, afterEach, expect } from "vitest";
import type { HeadlessChromium } from "./headless-chromium.js";
import { cleanupMemsvc } from "./spawn-memsvc.js";

/**
 * The hooks every memory-browser test file shares, registered in the calling `describe`: after
 * each test, no uncaught error and no Content-Security-Policy or Trusted Types violation on any
 * page; after all, the browser closed and the service stopped. `browser` reads the file's
 * browser, launched by its own `beforeAll` once the service holds its memories.
 *
 * @example
 * describe("the page", () => {
 *   beforeAll(async () => { svc = await startMemsvc(); browser = await launchChromium(); });
 *   checkPagesThenClose(() => browser);
 * });
 */
export function checkPagesThenClose(browser: () => HeadlessChromium): void {
  afterEach(() => {
    expect(browser().problems).toEqual([]);
  });
  afterAll(async () => {
    await (browser() as HeadlessChromium | undefined)?.close();
    await cleanupMemsvc();
  });
}
