import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `npm run build` puts the memory browser, relative to this module in `dist/`. */
export const DEFAULT_UI_ASSETS_DIR = fileURLToPath(new URL("../ui/", import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** One static file, read once at startup. */
export interface UiAsset {
  readonly body: Uint8Array;
  readonly contentType: string;
}

/** The memory browser's files, held in memory, and the version that names them in URLs. */
export interface UiAssets {
  /** 12 hex digits of SHA-256 over every file: changes whenever any file changes. */
  readonly version: string;
  /** `index.html` with its `%BASE%` placeholders still in place. */
  readonly indexTemplate: string;
  /** By file name (`app.js`), `index.html` excluded. */
  readonly files: ReadonlyMap<string, UiAsset>;
}

/**
 * Reads the built memory browser (a flat folder: `index.html` plus modules, CSS and icons) into
 * memory. Only known extensions are served, each with its exact content type. Throws a message
 * that says what to do when the folder or its `index.html` is missing.
 *
 * @example
 * const assets = loadUiAssets(DEFAULT_UI_ASSETS_DIR);
 * assets.files.get("app.js")?.contentType; // "text/javascript; charset=utf-8"
 */
export function loadUiAssets(dir: string): UiAssets {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && CONTENT_TYPES[extname(entry.name)] !== undefined)
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new Error(
      `memory browser assets not found at ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)}): run npm run build, or set ui.enabled: false`,
    );
  }
  if (!names.includes("index.html")) {
    throw new Error(`memory browser assets at ${dir} have no index.html: run npm run build`);
  }
  const hash = createHash("sha256");
  const files = new Map<string, UiAsset>();
  let indexTemplate = "";
  for (const name of names) {
    const body = readFileSync(join(dir, name));
    hash.update(name).update("\0").update(body).update("\0");
    if (name === "index.html") indexTemplate = body.toString("utf8");
    else files.set(name, { body, contentType: CONTENT_TYPES[extname(name)] as string });
  }
  return { version: hash.digest("hex").slice(0, 12), indexTemplate, files };
}
