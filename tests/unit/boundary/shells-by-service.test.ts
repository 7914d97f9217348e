import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const shells = join(root, "shells");

/** The service folder (`memsvc`, `sqlsvc`, `common`) a path under shells/ belongs to. */
function serviceOf(path: string): string | undefined {
  const rel = relative(shells, path);
  return rel.startsWith("..") ? undefined : rel.split(/[\\/]/)[0];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative specifiers of static imports, re-exports and dynamic `import()` calls. */
function relativeImports(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.{1,2}\/[^"]+)"/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** Which shell folders may import which (ESLint checks static imports; this also sees import()). */
const ALLOWED: Record<string, readonly string[]> = {
  memsvc: ["memsvc", "common"],
  sqlsvc: ["sqlsvc", "common"],
  common: ["common"],
};

describe("shells are grouped by service", () => {
  const files = sourceFiles(shells);

  it("has only memsvc/, sqlsvc/ and common/ under shells/", () => {
    const folders = new Set(files.map((file) => serviceOf(file)));
    expect([...folders].sort()).toEqual(["common", "memsvc", "sqlsvc"]);
  });

  it("never imports the other service's shell, and common imports neither", () => {
    const crossings: string[] = [];
    for (const file of files) {
      const from = serviceOf(file) ?? "";
      for (const specifier of relativeImports(readFileSync(file, "utf8"))) {
        const to = serviceOf(resolve(dirname(file), specifier));
        if (to !== undefined && !(ALLOWED[from] ?? []).includes(to))
          crossings.push(`${relative(root, file)} -> ${specifier}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
