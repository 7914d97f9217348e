import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  mountMemoryBrowser,
  UI_CONTENT_SECURITY_POLICY,
} from "../../../../../shells/memsvc/http/mount-memory-browser.js";
import { loadUiAssets } from "../../../../../shells/memsvc/http/ui-assets.js";
import { makeApp } from "../../../../unit/shells/memsvc/http/memory-app-fixture.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function assetsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ui-assets-"));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return dir;
}

const PAGE = {
  "index.html":
    '<link rel="stylesheet" href="%BASE%style.css"><script type="module" src="%BASE%app.js"></script>',
  "app.js": "console.log('hi');",
  "style.css": "body { color: red }",
  "notes.md": "not an asset",
};

function appWith(path: string, files: Record<string, string> = PAGE) {
  const app = new Hono();
  const assets = loadUiAssets(assetsDir(files));
  mountMemoryBrowser(app, { path, assets });
  return { app, assets };
}

describe("the memory browser's static files", () => {
  it("serves the page at the path, with and without a trailing slash, asset URLs versioned", async () => {
    const { app, assets } = appWith("/ui");
    for (const url of ["/ui", "/ui/"]) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toBe(
        `<link rel="stylesheet" href="/ui/assets/${assets.version}/style.css"><script type="module" src="/ui/assets/${assets.version}/app.js"></script>`,
      );
    }
  });

  it("redirects the service's root to the page", async () => {
    const { app } = appWith("/ui");
    const res = await app.request("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/ui");
  });

  it("sends a strict Content-Security-Policy and nosniff with the page and every asset", async () => {
    const { app, assets } = appWith("/ui");
    for (const url of ["/ui", `/ui/assets/${assets.version}/app.js`]) {
      const res = await app.request(url);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toBe(UI_CONTENT_SECURITY_POLICY);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe");
      expect(csp).toContain("require-trusted-types-for 'script'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });

  it("serves each asset with its content type, cached as immutable", async () => {
    const { app, assets } = appWith("/ui");
    const js = await app.request(`/ui/assets/${assets.version}/app.js`);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await js.text()).toBe(PAGE["app.js"]);
    const css = await app.request(`/ui/assets/${assets.version}/style.css`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("answers 304 to a revalidation with the current ETag", async () => {
    const { app } = appWith("/ui");
    const first = await app.request("/ui");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{12}"$/);
    const again = await app.request("/ui", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("answers 404 for another version, an unknown file and a file of an unserved kind", async () => {
    const { app, assets } = appWith("/ui");
    for (const url of [
      "/ui/assets/000000000000/app.js",
      `/ui/assets/${assets.version}/missing.js`,
      `/ui/assets/${assets.version}/notes.md`,
      `/ui/assets/${assets.version}/index.html`,
    ]) {
      const res = await app.request(url);
      expect(res.status, url).toBe(404);
      expect(await res.json()).toEqual({ error: expect.stringContaining("no such asset") });
    }
  });

  it("gives a new version when any file changes", () => {
    const one = loadUiAssets(assetsDir(PAGE)).version;
    const two = loadUiAssets(assetsDir({ ...PAGE, "style.css": "body { color: blue }" })).version;
    expect(one).not.toBe(two);
  });

  it("can live at the root or at a deeper path", async () => {
    const root = appWith("/");
    expect((await root.app.request("/")).status).toBe(200);
    expect(await (await root.app.request("/")).text()).toContain(
      `src="/assets/${root.assets.version}/app.js"`,
    );
    expect((await root.app.request(`/assets/${root.assets.version}/app.js`)).status).toBe(200);
    const deep = appWith("/admin/memories");
    expect((await deep.app.request("/admin/memories")).status).toBe(200);
    expect(
      (await deep.app.request(`/admin/memories/assets/${deep.assets.version}/app.js`)).status,
    ).toBe(200);
  });

  it("refuses to start without built assets, saying how to build them", () => {
    expect(() => loadUiAssets(join(tmpdir(), "no-such-ui-dir"))).toThrow(/npm run build/);
    expect(() => loadUiAssets(assetsDir({ "app.js": "" }))).toThrow(/no index.html/);
  });

  it("stays open without the token inside the memory API, while the API itself stays guarded", async () => {
    const assets = loadUiAssets(assetsDir(PAGE));
    const { app } = await makeApp({ authToken: "s3cret", ui: { path: "/ui", assets } });
    expect((await app.request("/ui")).status).toBe(200);
    expect((await app.request(`/ui/assets/${assets.version}/app.js`)).status).toBe(200);
    expect((await app.request("/v1/stats")).status).toBe(401);
    const authed = await app.request("/v1/stats", { headers: { Authorization: "Bearer s3cret" } });
    expect(authed.status).toBe(200);
    expect(authed.headers.get("content-security-policy")).toBeNull();
  });

  it("is not served when the memory API is built without it", async () => {
    const { app } = await makeApp({ authToken: "s3cret" });
    expect((await app.request("/ui")).status).toBe(401);
    const authed = await app.request("/ui", { headers: { Authorization: "Bearer s3cret" } });
    expect(authed.status).toBe(404);
  });
});
