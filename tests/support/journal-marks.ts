import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JOURNAL_MARKS_FILE } from "../../adapters/system/file-write-journal.js";

/**
 * Waits until a write journal's marks file says the store holds part of a segment. The rewrite
 * is a timer and a synced write, so under load it can take longer than any fixed sleep.
 */
export async function marksShowApplied(dir: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const marks = JSON.parse(readFileSync(join(dir, JOURNAL_MARKS_FILE), "utf8")) as {
        segments: Record<string, { appliedBytes: number }>;
      };
      if (Object.values(marks.segments).some((mark) => mark.appliedBytes > 0)) return;
    } catch {
      // Not written yet.
    }
    if (Date.now() > deadline) throw new Error("the marks file was not rewritten within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
