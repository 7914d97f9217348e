import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  brokenReferences,
  declaredNames,
  extractReferences,
  headingAnchors,
  type RepositoryIndex,
} from "../../support/markdown-references.js";

/**
 * Every path and identifier the docs name still exists (issue 20): a newcomer who follows a
 * link, opens a file or searches for a class the docs name finds it. `docs/history/` is left
 * out: it describes the code as it was.
 */

const root = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCE_FOLDERS = ["core", "adapters", "shells", "bench", "scripts", "tests"];
const SOURCE_FILE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(path)) found.push(relative(root, path));
    }
  };
  if (existsSync(join(root, folder))) walk(join(root, folder));
  return found;
}

function repositoryIndex(): RepositoryIndex {
  const declared = new Set<string>();
  const words = new Set<string>();
  for (const folder of SOURCE_FOLDERS) {
    for (const file of filesUnder(folder, (path) => SOURCE_FILE.test(path))) {
      const source = readFileSync(join(root, file), "utf8");
      for (const name of declaredNames(source)) declared.add(name);
      for (const word of source.match(/[A-Za-z_$][\w$]*/g) ?? []) words.add(word);
    }
  }
  return {
    exists: (path) => {
      const full = join(root, path);
      if (!existsSync(full)) return false;
      return path.endsWith("/") ? statSync(full).isDirectory() : true;
    },
    markdown: (path) => {
      const full = join(root, path);
      return existsSync(full) && statSync(full).isFile() ? readFileSync(full, "utf8") : undefined;
    },
    declared,
    words,
  };
}

/** README.md and every page under docs/ but docs/history/. */
function currentPages(): string[] {
  return [
    "README.md",
    ...filesUnder("docs", (path) => path.endsWith(".md")).filter(
      (path) => !path.startsWith(join("docs", "history")),
    ),
  ].sort();
}

describe("the docs' references", () => {
  it("name only paths, anchors and symbols that exist", () => {
    const repo = repositoryIndex();
    const broken = currentPages().flatMap((page) =>
      brokenReferences(page, readFileSync(join(root, page), "utf8"), repo),
    );
    expect(broken.join("\n")).toBe("");
  });

  it("are read from every current page, README.md included", () => {
    const pages = currentPages();
    expect(pages).toContain("README.md");
    expect(pages).toContain("docs/performance.md");
    expect(pages.some((page) => page.startsWith("docs/history/"))).toBe(false);
  });
});

describe("the docs reference checker", () => {
  const repo: RepositoryIndex = {
    exists: (path) => ["docs/", "docs/a.md", "docs/b.md", "core/", "core/x.ts"].includes(path),
    markdown: (path) => (path === "docs/b.md" ? "# Title\n## Reads at 100k: `fast`\n" : undefined),
    declared: new Set(["MemoryService", "parseInput"]),
    words: new Set(["CONFIG_KEYS", "embedQuery"]),
  };
  const page = [
    "Good: [b](b.md#reads-at-100k-fast), [top](#a-page), `core/x.ts`, `MemoryService`,",
    "`parseInput()`, `CONFIG_KEYS`, `MEMSVC_API_AUTH_TOKEN`, `JSON.parse`, `/v1/recall`,",
    "`api.auth_token`, [web](https://example.com).",
    "Broken: [c](c.md), [b](b.md#nowhere), [spec](../../elsewhere/spec.md), `core/y.ts`,",
    "`MemoryServise`, `parseInputs()`, `NO_SUCH_KEYS`, `MemoryService.embedQuerry`.",
    "```sh",
    "npx tsx bench/missing.ts --n 10",
    "```",
  ].join("\n");

  it("reports each broken reference as file: reference", () => {
    expect(brokenReferences("docs/a.md", `# A page\n${page}`, repo)).toEqual([
      "docs/a.md: c.md (no such file)",
      "docs/a.md: b.md#nowhere (no heading #nowhere in docs/b.md)",
      "docs/a.md: ../../elsewhere/spec.md (outside the repository)",
      "docs/a.md: core/y.ts (no such path)",
      "docs/a.md: MemoryServise (declared nowhere in the sources)",
      "docs/a.md: parseInputs (declared nowhere in the sources)",
      "docs/a.md: NO_SUCH_KEYS (named nowhere in the sources)",
      "docs/a.md: embedQuerry (named nowhere in the sources)",
      "docs/a.md: bench/missing.ts (no such path)",
    ]);
  });

  it("takes a heading's anchor as GitHub does", () => {
    const anchors = headingAnchors(
      "# Latest figures (quiet machine, 2026-11-26 21:09 UTC)\n## `memsvc` — a service\n## `memsvc` — a service\n```\n# not a heading\n```",
    );
    expect([...anchors]).toEqual([
      "latest-figures-quiet-machine-2026-11-26-2109-utc",
      "memsvc--a-service",
      "memsvc--a-service-1",
    ]);
  });

  it("leaves environment variables, config keys, HTTP paths and web links alone", () => {
    const kinds = extractReferences(
      "`MEMSVC_UI_PATH`, `api.auth_token`, `/v1/recall`, `npm test`, [w](https://x.org/a.md)",
    );
    expect(kinds).toEqual([]);
  });

  it("finds the names a source file declares", () => {
    const names = declaredNames(
      [
        "export function parseInput() {}",
        "export class MemoryService {",
        "  async recall(input: RecallInput): Promise<void> {}",
        "  readonly #store: VectorStore;",
        "}",
        "export { createMemoryApp as createApp } from './app.js';",
        "export type Kind = 'a';",
      ].join("\n"),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "parseInput",
        "MemoryService",
        "recall",
        "store",
        "createMemoryApp",
        "createApp",
        "Kind",
      ]),
    );
  });
});
