import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../../support/source-imports.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Lines a core file may have without saying why it is longer. */
const MAX_LINES = 300;
/** How far into a file its header may be. */
const HEADER_LINES = 40;
/** The reason line: `Long because: …` in a comment (after `/**`, `/*`, `*` or `//`). */
const REASON = /^\s*(?:\/\*+|\*|\/\/)?\s*Long because:\s*[^\s*/]/;

/**
 * The files over {@link MAX_LINES} lines whose first {@link HEADER_LINES} lines give no reason, as
 * `path (n lines)`.
 */
function unexplainedLongFiles(files: readonly { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length <= MAX_LINES) return [];
    const header = lines.slice(0, HEADER_LINES);
    return header.some((line) => REASON.test(line)) ? [] : [`${path} (${lines.length} lines)`];
  });
}

describe("core file size (issue 20)", () => {
  it(`has no file over ${MAX_LINES} lines without a "Long because:" line in its header`, () => {
    const files = sourceFiles(join(root, "core")).map((file) => ({
      path: relative(root, file),
      text: readFileSync(file, "utf8"),
    }));
    const offenders = unexplainedLongFiles(files);
    expect(
      offenders,
      `split these, or say why they are long in a "Long because:" line in their first ${HEADER_LINES} lines:\n${offenders.join("\n")}`,
    ).toEqual([]);
  });

  it("names a long file without a reason, and accepts one with a reason in its header", () => {
    const long = (header: string) => `${header}\n${"const x = 1;\n".repeat(MAX_LINES)}`;
    expect(
      unexplainedLongFiles([
        { path: "core/a.ts", text: long("/** A thing. */") },
        { path: "core/b.ts", text: long("/**\n * B.\n * Long because: one loop.\n */") },
        { path: "core/c.ts", text: long("// Long because: one table.") },
        { path: "core/d.ts", text: "const short = 1;\n" },
        { path: "core/e.ts", text: long(`${"\n".repeat(HEADER_LINES)}// Long because: too late.`) },
        { path: "core/f.ts", text: long("/** Long because: */") },
      ]),
    ).toEqual(["core/a.ts (301 lines)", "core/e.ts (341 lines)", "core/f.ts (301 lines)"]);
  });
});
