import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The `version` of the agent-services package.json, found by walking up from this module (the
 * same code runs from `shells/` under tsx and from `dist/shells/` when built, at different depths).
 *
 * @example
 * packageVersion(); // "0.1.0"
 */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "agent-services" && pkg.version !== undefined) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return "0.0.0-unknown";
    dir = parent;
  }
}
