import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importedFiles, sourceFiles } from "../../support/source-imports.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const memory = join(root, "core/memory");

/** The imports of the files under `dir` that leave `allowed`, as `from -> to`. */
function importsOutside(dir: string, allowed: readonly string[]): string[] {
  return sourceFiles(join(memory, dir)).flatMap((file) =>
    importedFiles(file)
      .filter((target) => !allowed.some((prefix) => target.startsWith(join(root, prefix))))
      .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
  );
}

// core/memory reads inward: model/ <- engine/ <- use-cases/ <- the service (issue 20).
describe("core/memory layers (issue 20)", () => {
  it("keeps the domain model (model/) free of the engine, the use cases and the service", () => {
    expect(
      importsOutside("model", ["core/memory/model/", "core/errors.ts", "core/ports/"]),
    ).toEqual([]);
  });

  it("keeps the engine (engine/) free of the use cases and the service", () => {
    expect(
      importsOutside("engine", [
        "core/memory/model/",
        "core/memory/engine/",
        "core/errors.ts",
        "core/ports/",
        "core/retrieval/",
      ]),
    ).toEqual([]);
  });
});
