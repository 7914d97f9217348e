import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JOURNAL_MARKS_FILE } from "../../adapters/system/file-write-journal.js";
import { nodeJournalFiles, type JournalFiles } from "../../adapters/system/journal-files.js";

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

/**
 * The real file system until `crash()`, then nothing: every later call of the journal that uses
 * it fails, also on files it opened before, as a process that died would do nothing more. A
 * journal left open by a test's "crash" otherwise keeps rewriting its marks file beside the one
 * the test opens next on the same directory (they share `journal.marks.tmp`), which no real
 * crash does.
 *
 * @example
 * const { files, crash } = crashableJournalFiles();
 * const first = new FileWriteJournal(dir, { files });
 * crash(); // first's pending marks write fails instead of renaming the next one's file away
 */
export function crashableJournalFiles(): { files: JournalFiles; crash: () => void } {
  let crashed = false;
  const alive =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      crashed ? Promise.reject(new Error("the process crashed")) : call(...args);
  const files: JournalFiles = {
    mkdir: alive(nodeJournalFiles.mkdir),
    readdir: alive(nodeJournalFiles.readdir),
    readFile: alive(nodeJournalFiles.readFile),
    rm: alive(nodeJournalFiles.rm),
    rename: alive(nodeJournalFiles.rename),
    syncDirectory: alive(nodeJournalFiles.syncDirectory),
    open: alive(async (path: string, flags: "a" | "w") => {
      const handle = await nodeJournalFiles.open(path, flags);
      return {
        writev: alive((buffers: Parameters<typeof handle.writev>[0]) => handle.writev(buffers)),
        datasync: alive(() => handle.datasync()),
        truncate: alive((length: number) => handle.truncate(length)),
        close: () => handle.close(),
      };
    }),
  };
  return { files, crash: () => (crashed = true) };
}
