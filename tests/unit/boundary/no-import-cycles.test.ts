import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importedFiles, sourceFiles } from "../../support/source-imports.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * The import cycles among `files` (type-only imports count: a cycle of types still means two
 * modules that cannot be read one without the other), each as the files of one strongly
 * connected component, found with Tarjan's algorithm.
 */
function importCycles(
  files: readonly string[],
  importsOf: (file: string) => readonly string[] = importedFiles,
): string[][] {
  const inScope = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => inScope.has(t))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe("import cycles (issue 9)", () => {
  for (const dir of ["core", "adapters", "shells", "bench"]) {
    it(`has none in ${dir}/`, () => {
      const cycles = importCycles(sourceFiles(join(root, dir)));
      expect(cycles.map((files) => files.map((file) => relative(root, file)))).toEqual([]);
    });
  }

  it("finds a cycle when there is one, and only its files", () => {
    const graph: Record<string, string[]> = { a: ["b"], b: ["c"], c: ["a"], d: ["a"], e: [] };
    const cycles = importCycles(Object.keys(graph), (file) => graph[file] ?? []);
    expect(cycles).toEqual([["a", "b", "c"]]);
  });
});
