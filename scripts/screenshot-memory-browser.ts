/**
 * Regenerates `docs/memory-browser.png`: starts the built `memsvc` on a free port with a temp
 * data directory and a token, stores a small project's memories through the API, opens `/ui` in
 * Debian's Chromium, enters the token, runs a recall preview and saves a full-page screenshot.
 *
 * Run (after `npm run build`): npx tsx scripts/screenshot-memory-browser.ts [OUT.png]
 */
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/headless-chromium.js";
import { cleanupMemsvc, startMemsvc } from "../tests/support/spawn-memsvc.js";

const OUT =
  process.argv[2] ?? fileURLToPath(new URL("../docs/memory-browser.png", import.meta.url));
const TOKEN = "screenshot-token";
const MEMORIES = [
  {
    content: "Deploys to production happen on Tuesdays after the standup",
    type: "rule",
    scope: "project",
    project: "shop",
    tags: ["deploy", "process"],
  },
  {
    content: "The staging database is read-only for developers",
    type: "fact",
    scope: "permanent",
    project: "shop",
    tags: ["database"],
  },
  {
    content: "Alice prefers short answers with the code first",
    type: "preference",
    scope: "permanent",
    tags: ["style"],
  },
  {
    content: "To rotate the API key: create a new one, deploy, then revoke the old one",
    type: "procedure",
    scope: "permanent",
    project: "shop",
    tags: ["security", "deploy"],
    confidence: 0.9,
  },
  {
    content: "The checkout failed yesterday because the payment provider timed out",
    type: "episode",
    scope: "session",
    project: "shop",
    tags: ["incident"],
    confidence: 0.7,
  },
  {
    content: "Never log customer email addresses",
    type: "rule",
    scope: "permanent",
    tags: ["privacy"],
  },
  {
    content: "The analytics warehouse runs on PostgreSQL 16",
    type: "fact",
    scope: "project",
    project: "analytics",
    tags: ["database"],
  },
  {
    content: "Nightly reports are generated at 02:00 UTC",
    type: "fact",
    scope: "ttl",
    project: "analytics",
    tags: ["reports"],
    ttl_seconds: 14 * 86_400,
  },
  {
    content: "Bob wants pull requests to stay under 400 lines",
    type: "preference",
    scope: "project",
    project: "shop",
    tags: ["review"],
    confidence: 0.8,
  },
  {
    content: "Feature flags are removed two weeks after a full rollout",
    type: "rule",
    scope: "project",
    project: "shop",
    tags: ["process"],
  },
];

const svc = await startMemsvc({
  env: { MEMSVC_API_AUTH_TOKEN: TOKEN, MEMSVC_LOG_LEVEL: "warn" },
});
try {
  const base = svc.baseUrl;
  const stored = await fetch(`${base}/v1/remember/batch`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ memories: MEMORIES }),
  });
  if (!stored.ok) throw new Error(`remember/batch: ${stored.status} ${await stored.text()}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${base}/ui`);
  await page.fill("#token-input", TOKEN);
  await page.press("#token-input", "Enter");
  await page.waitForSelector("#memories tbody tr");
  await page.fill("#recall-message", "when can I deploy to production?");
  await page.fill('#recall input[name="budget"]', "120");
  await page.click('#recall button[type="submit"]');
  await page.waitForSelector("#recall-context:not([hidden])");
  await page.evaluate("window.scrollTo(0, 0); document.querySelector('.side').scrollTop = 0");
  await page.screenshot({ path: OUT });
  await browser.close();
  console.log(`wrote ${OUT}`);
} finally {
  await svc.stop();
  await cleanupMemsvc();
}
