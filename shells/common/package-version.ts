import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The version of the agent-services package this code runs from, read from its package.json:
 * found by walking up from this file, so it works from the sources (tsx) and from `dist/`.
 * Not imported as JSON, which would copy package.json into `dist/` and change how Node loads it.
 *
 * @example
 * packageVersion(); // "0.1.0"
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "agent-services" && typeof manifest.version === "string")
        return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return "0.0.0";
    dir = parent;
  }
}
