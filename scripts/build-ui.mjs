// Builds the memory browser into dist/shells/memsvc/ui: its TypeScript modules bundled into one
// minified app.js by esbuild, next to the static files (HTML, CSS, icon) copied as they are.
//
// One file instead of one request per module: a first visit fetched nine modules (each a request
// and a module record to link before app.js could run), and even with modulepreload the page
// waited on the slowest of them. Types are checked by `npm run typecheck` (tsc), not here.
import { cpSync, rmSync } from "node:fs";
import { build } from "esbuild";

const out = "dist/shells/memsvc/ui";
rmSync(out, { recursive: true, force: true });
cpSync("shells/memsvc/ui", out, {
  recursive: true,
  filter: (source) => !/\.(ts|json)$/.test(source),
});
await build({
  entryPoints: ["shells/memsvc/ui/app.ts"],
  outfile: `${out}/app.js`,
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
