import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium; `.ci/run` installs it when it is missing. Never a downloaded browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * The flags every browser test starts Chromium with: headless, no sandbox (CI runs as root), and
 * none of the background connections the closed network of CI machines would refuse.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * True when Chromium is installed. When it is not, says so loudly on stderr: the browser tests
 * are then skipped, and that must not go unnoticed.
 *
 * @example
 * describe.skipIf(!chromiumAvailable())("the memory browser", () => { … });
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const line = "!".repeat(78);
  process.stderr.write(
    `\n${line}\n!! SKIPPED: the memory browser's end-to-end tests need ${CHROMIUM_PATH}.\n` +
      `!! Install it with: apt-get update && apt-get install -y chromium (.ci/run does).\n${line}\n\n`,
  );
  return false;
}

/** A running headless Chromium with a fresh profile, and what its pages reported. */
export interface HeadlessChromium {
  readonly context: BrowserContext;
  /** A new tab that records uncaught errors and CSP / Trusted Types violations. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Uncaught page errors and policy violations seen so far (should stay empty). */
  readonly problems: string[];
  close(): Promise<void>;
}

/**
 * Starts Debian's Chromium through playwright-core with a fresh `--user-data-dir` (removed on
 * close).
 *
 * @example
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 * await page.goto(`${svc.baseUrl}/ui`);
 */
export async function launchChromium(): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const problems: string[] = [];
  return {
    context,
    problems,
    async newPage(viewport) {
      const page = await context.newPage();
      if (viewport !== undefined) await page.setViewportSize(viewport);
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        const text = message.text();
        if (/Content Security Policy|Trusted ?(Type|HTML|Script)|Refused to/i.test(text)) {
          problems.push(`policy: ${text}`);
        }
      });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
