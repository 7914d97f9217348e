import type { Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  launchChromium,
  type HeadlessChromium,
} from "../support/headless-chromium.js";
import { checkPagesThenClose } from "../support/page-test-hooks.js";
import { startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";

const TOKEN = "browser-tenants-e2e-token-0123456789";

let svc: MemsvcProcess;
let browser: HeadlessChromium;

describe.skipIf(!chromiumAvailable())("the memory browser's tenant picker (issue 23)", () => {
  beforeAll(async () => {
    svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: TOKEN } });
    const res = await fetch(`${svc.baseUrl}/v1/remember`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ content: "A memory of the default tenant", type: "fact" }),
    });
    expect(res.status).toBe(200);
    browser = await launchChromium();
  });
  checkPagesThenClose(() => browser);

  it("shows the operator the tenants with their counts and sends the picked one as X-Memsvc-Tenant", async () => {
    const page = await browser.newPage();
    // The service lists its tenants; one more is added here, as if acme held memories.
    await page.route("**/v1/tenants", async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { tenants: { tenant: string; memories: number }[] };
      await route.fulfill({
        response: answer,
        json: { tenants: [{ tenant: "acme", memories: 4 }, ...body.tenants] },
      });
    });
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    const picker = page.locator("#tenant-picker");
    await picker.waitFor();
    expect(await picker.locator("option").allTextContents()).toEqual(["acme (4)", "default (1)"]);
    expect(await picker.inputValue()).toBe("default");

    const listing = page.waitForRequest((r) => r.url().includes("/v1/memories?"));
    await picker.selectOption("acme");
    expect((await listing).headers()["x-memsvc-tenant"]).toBe("acme");
    expect(await page.evaluate("sessionStorage.getItem('memsvc.tenant')")).toBe("acme");

    await page.click("#sign-out");
    expect(await page.locator("#tenant-picker").count()).toBe(0);
    expect(await page.evaluate("sessionStorage.getItem('memsvc.tenant')")).toBeNull();
  });

  it("forgets the picked tenant and its picker when the service refuses the token mid-session", async () => {
    const page = await browser.newPage();
    await page.route("**/v1/tenants", (route) =>
      route.fulfill({ json: { tenants: [{ tenant: "acme", memories: 4 }] } }),
    );
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await page.locator("#tenant-picker").selectOption("acme");
    expect(await page.evaluate("sessionStorage.getItem('memsvc.tenant')")).toBe("acme");

    // The token stops working (the service restarted with another one, or the key was revoked).
    const refuse = (route: Route) =>
      route.fulfill({ status: 401, json: { error: "invalid bearer token" } });
    await page.route("**/v1/memories?*", refuse);
    await page.click('#filters button[type="submit"]');
    await page.locator("#token-error", { hasText: "enter the token again" }).waitFor();
    expect(await page.locator("#tenant-picker").count()).toBe(0);
    expect(await page.evaluate("sessionStorage.getItem('memsvc.tenant')")).toBeNull();

    // The next key starts on its own tenant: no leftover X-Memsvc-Tenant.
    await page.unroute("**/v1/memories?*", refuse);
    const listing = page.waitForRequest((r) => r.url().includes("/v1/memories?"));
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    expect((await listing).headers()["x-memsvc-tenant"]).toBeUndefined();
    await page.locator("#memories tbody tr").first().waitFor();
  });

  it("asks a tenant key for no tenant list, so that the console shows no error", async () => {
    const made = await fetch(`${svc.baseUrl}/v1/keys`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ tenant: "default" }),
    });
    const { key } = (await made.json()) as { key: string };
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${svc.baseUrl}/ui`);
    await page.locator("#gate").waitFor();
    errors.length = 0; // the first load asks without a token: that 401 is how it learns one is needed
    await page.fill("#token-input", key);
    await page.press("#token-input", "Enter");
    await page.locator("#stats-total", { hasNotText: /^0$/ }).waitFor();
    await page.locator("#memories tbody tr").first().waitFor();
    expect(await page.locator("#tenant-picker").count()).toBe(0);
    expect(asked).not.toContain("/v1/tenants");
    expect(errors).toEqual([]);
  });

  it("shows no picker when GET /v1/tenants is refused (a tenant key)", async () => {
    const page = await browser.newPage();
    await page.route("**/v1/tenants", (route) =>
      route.fulfill({
        status: 403,
        json: { error: "forbidden: only the operator's key may list tenants" },
      }),
    );
    await page.goto(`${svc.baseUrl}/ui`);
    await page.fill("#token-input", TOKEN);
    await page.press("#token-input", "Enter");
    await page.locator("#stats-total", { hasNotText: /^0$/ }).waitFor();
    expect(await page.locator("#tenant-picker").count()).toBe(0);
  });
});
