// `npm start` and `npm run start:sql` run this first: it builds dist/ only when it is missing or
// older than a source file, so a start right after `npm ci`/`npm run build` starts at once and a
// start after editing a source builds first. (`npm run build` always builds.)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["core", "adapters", "shells", "package.json", "tsconfig.build.json"];
const STAMP = "dist/.build-stamp";

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -Infinity;
const changed = Math.max(...SOURCES.filter((p) => existsSync(p)).map(newest));
if (changed > built) {
  process.stderr.write(
    existsSync(STAMP) ? "sources changed: building dist/\n" : "building dist/\n",
  );
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
