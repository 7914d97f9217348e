import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const scanner = fileURLToPath(new URL("../../../../core/sql/security/", import.meta.url));
const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+"(\.{1,2}\/[^"]+)"/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Relative imports (type-only ones included) of each scanner file, as absolute .ts paths. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(scanner)) {
    const targets: string[] = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolve(dirname(file), (match[1] ?? "").replace(/\.js$/, ".ts"));
      if (target.startsWith(scanner)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The first import cycle found by depth-first search, as file names, or []. */
function findCycle(graph: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): string[] => {
    if (state.get(file) === "done") return [];
    if (state.get(file) === "open") return [...path.slice(path.indexOf(file)), file];
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    path.pop();
    state.set(file, "done");
    return [];
  };
  for (const file of graph.keys()) {
    const cycle = visit(file);
    if (cycle.length > 0) return cycle.map((f) => relative(scanner, f));
  }
  return [];
}

describe("core/sql/security imports (issue 9)", () => {
  it("reads the scanner's files and their relative imports", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(graph.get(join(scanner, "scan-sql.ts"))).toContain(join(scanner, "scan-context.ts"));
  });

  it("has no import cycle, type-only imports included", () => {
    expect(findCycle(importGraph())).toEqual([]);
  });
});
