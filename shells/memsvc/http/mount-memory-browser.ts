import type { Context, Hono } from "hono";
import type { UiAssets } from "./ui-assets.js";

/**
 * The page's Content-Security-Policy: scripts, styles, images and API calls from this origin
 * only, no inline script or style, no plugins, no framing, no `<base>` or form targets, and
 * Trusted Types enforced so that no string can ever reach an HTML sink such as `innerHTML`.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join("; ");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": UI_CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

/** Options of {@link mountMemoryBrowser}. */
export interface MemoryBrowserOptions {
  /** Where the page lives: `/ui` (default in the config), `/admin/memories`, or `/`. */
  readonly path: string;
  readonly assets: UiAssets;
}

function answer(
  c: Context,
  body: Uint8Array | string,
  headers: Record<string, string>,
  etag: string,
) {
  const all = { ...SECURITY_HEADERS, ...headers, ETag: etag };
  if (c.req.header("if-none-match") === etag) return c.body(null, 304, all);
  return c.body(body as never, 200, all);
}

/**
 * Serves the memory browser on an app: `GET {path}` (and `{path}/`) answers the page (and `GET /`
 * redirects to it), whose
 * modules, CSS and icon live under `{path}/assets/{version}/`. The page is revalidated on every
 * load (`no-cache` with an ETag, so a new build is picked up at once); the versioned assets are
 * cached for a year as immutable, since a new build gets a new version. An old version's URL is a
 * 404, never new content under an old name.
 *
 * Mount it before the bearer guard: a browser cannot put a token on a page load, and these files
 * hold no data. Every API call the page makes carries the token and meets the guard as usual.
 *
 * @example
 * mountMemoryBrowser(app, { path: "/ui", assets: loadUiAssets(DEFAULT_UI_ASSETS_DIR) });
 */
export function mountMemoryBrowser(app: Hono, options: MemoryBrowserOptions): void {
  const { assets } = options;
  const root = options.path === "/" ? "" : options.path.replace(/\/+$/, "");
  const assetBase = `${root}/assets/${assets.version}/`;
  const index = assets.indexTemplate.replaceAll("%BASE%", assetBase);
  const indexTag = `"${assets.version}"`;
  const page = (c: Context) =>
    answer(
      c,
      index,
      { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
      indexTag,
    );
  app.get(root === "" ? "/" : root, page);
  if (root !== "") {
    app.get(`${root}/`, page);
    // A person who types the service's address lands on the page, not on a 404.
    app.get("/", (c) => c.redirect(root, 302));
  }
  app.get(`${root}/assets/:version/:name`, (c) => {
    const file = assets.files.get(c.req.param("name"));
    if (c.req.param("version") !== assets.version || file === undefined) {
      return c.json({ error: `no such asset: ${c.req.path}` }, 404, SECURITY_HEADERS);
    }
    return answer(
      c,
      file.body,
      { "Content-Type": file.contentType, "Cache-Control": "public, max-age=31536000, immutable" },
      `"${assets.version}-${c.req.param("name")}"`,
    );
  });
}
