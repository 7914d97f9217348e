import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { relativeImports, sourceFiles } from "../../support/source-imports.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const shells = join(root, "shells");

/** The service folder (`memsvc`, `sqlsvc`, `common`) a path under shells/ belongs to. */
function serviceOf(path: string): string | undefined {
  const rel = relative(shells, path);
  return rel.startsWith("..") ? undefined : rel.split(/[\\/]/)[0];
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
