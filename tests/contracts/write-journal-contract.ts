import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JournalEntry, WriteJournal } from "../../core/ports/write-journal.js";

/**
 * What a contract run needs: a place that keeps a journal's entries (a directory, an object) and
 * a way to get a new, unopened journal over it, as a restarted process would. `journal()` is only
 * called again after the previous journal was closed (or dropped, as after a crash).
 */
export interface WriteJournalUnderTest {
  journal(): WriteJournal;
  cleanup(): Promise<void>;
}

/** An upsert whose vector is exact in float32 (what a file journal keeps of a vector). */
function upsert(id: string): JournalEntry {
  return {
    op: "upsert",
    records: [
      {
        id,
        vector: [0.1875, -2.5, 1024],
        document: `note ${id}: déploiement ✓ "quoted" \n second line`,
        metadata: { type: "fact", confidence: 0.5, permanent: true, count: 3, empty: "" },
      },
    ],
  };
}

const update = (id: string, n: number): JournalEntry => ({
  op: "update",
  updates: [{ id, metadata: { n, tag: "x" } }],
});
const remove = (...ids: string[]): JournalEntry => ({ op: "delete", ids });

/**
 * The behaviour every {@link WriteJournal} must have (see its doc comment): positions, what a
 * reopen gives back, what `discardThrough` allows to be dropped (the port says "may": a file
 * journal drops whole segments only), and the order of appends. Runs against the
 * in-memory fake in unit tests and against `FileWriteJournal` in integration tests.
 *
 * @example
 * describeWriteJournalContract("InMemoryWriteJournal", async () => {
 *   const journal = new InMemoryWriteJournal();
 *   return { journal: () => journal.reopen(), cleanup: async () => {} };
 * });
 */
export function describeWriteJournalContract(
  name: string,
  make: () => Promise<WriteJournalUnderTest>,
): void {
  describe(`WriteJournal contract: ${name}`, () => {
    let subject: WriteJournalUnderTest;
    /** Journals this test opened, closed after it (close is idempotent). */
    let opened: WriteJournal[];

    /** A new journal over the same place, opened; resolves with it and what open() returned. */
    async function reopen(): Promise<{ journal: WriteJournal; leftover: readonly JournalEntry[] }> {
      const journal = subject.journal();
      opened.push(journal);
      return { journal, leftover: await journal.open() };
    }

    beforeEach(async () => {
      subject = await make();
      opened = [];
    });
    afterEach(async () => {
      for (const journal of opened) await journal.close();
      await subject.cleanup();
    });

    it("opens empty the first time", async () => {
      const { leftover } = await reopen();
      expect(leftover).toEqual([]);
    });

    it("gives each entry the next position and resolves an append with its last one", async () => {
      const { journal } = await reopen();
      expect(await journal.append([upsert("a")])).toBe(1);
      expect(await journal.append([update("a", 1), remove("b"), upsert("c")])).toBe(4);
      expect(await journal.append([remove("c")])).toBe(5);
    });

    it("resolves concurrent appends in the order they were made", async () => {
      const { journal } = await reopen();
      const settled: number[] = [];
      const appends = Array.from({ length: 8 }, (_, i) =>
        journal.append([remove(`r${i}`)]).then((position) => {
          settled.push(position);
          return position;
        }),
      );
      expect(await Promise.all(appends)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(settled).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it("gives back, after a reopen, every entry appended and not discarded, oldest first", async () => {
      const first = await reopen();
      await first.journal.append([upsert("a")]);
      await first.journal.append([update("a", 1)]);
      await first.journal.append([remove("b"), upsert("c")]);
      await first.journal.close();
      const { leftover } = await reopen();
      expect(leftover).toEqual([upsert("a"), update("a", 1), remove("b"), upsert("c")]);
    });

    it("keeps what was appended, not the caller's object as it is later changed", async () => {
      const first = await reopen();
      const record = { id: "a", vector: [1, 2], document: "as appended", metadata: { n: 1 } };
      await first.journal.append([{ op: "upsert", records: [record] }]);
      record.document = "changed after the append";
      record.vector[0] = 42;
      record.metadata.n = 2;
      await first.journal.close();
      expect((await reopen()).leftover).toEqual([
        {
          op: "upsert",
          records: [{ id: "a", vector: [1, 2], document: "as appended", metadata: { n: 1 } }],
        },
      ]);
    });

    it("keeps every entry after a discarded position; it may drop those up to it", async () => {
      const first = await reopen();
      await first.journal.append([upsert("a")]);
      const at = await first.journal.append([remove("a"), upsert("b")]);
      await first.journal.append([upsert("c")]);
      await first.journal.discardThrough(at);
      await first.journal.close();
      const { leftover } = await reopen();
      expectSuffix(leftover, [upsert("a"), remove("a"), upsert("b"), upsert("c")], 3);
    });

    it("reopens empty after everything was discarded and the journal closed", async () => {
      const first = await reopen();
      await first.journal.append([upsert("a")]);
      const last = await first.journal.append([upsert("b")]);
      await first.journal.discardThrough(last);
      await first.journal.close();
      expect((await reopen()).leftover).toEqual([]);
    });

    it("counts the entries open() returned from 1 and goes on after them", async () => {
      const first = await reopen();
      await first.journal.append([upsert("a")]);
      await first.journal.append([upsert("b")]);
      await first.journal.append([upsert("c")]);
      await first.journal.discardThrough(1);
      await first.journal.close();

      const second = await reopen();
      expectSuffix(second.leftover, [upsert("a"), upsert("b"), upsert("c")], 1);
      const count = second.leftover.length;
      expect(await second.journal.append([upsert("d")])).toBe(count + 1);
      // Everything open() returned is in the store now; "d" is not.
      await second.journal.discardThrough(count);
      await second.journal.close();

      const { leftover } = await reopen();
      expectSuffix(leftover, [upsert("a"), upsert("b"), upsert("c"), upsert("d")], 3);
    });

    it("keeps the entries of a journal dropped without close (a crash)", async () => {
      const first = await reopen();
      await first.journal.append([upsert("a")]);
      await first.journal.append([remove("a")]);
      opened.splice(opened.indexOf(first.journal), 1);
      // No close: the next process opens the same place. Close the old one only afterwards so
      // the fake and the file journal both see what an unclean stop left.
      const crashed = first.journal;
      const { leftover } = await reopen();
      expect(leftover).toEqual([upsert("a"), remove("a")]);
      await crashed.close();
    });

    it("closes idempotently", async () => {
      const { journal } = await reopen();
      await journal.append([upsert("a")]);
      await journal.close();
      await expect(journal.close()).resolves.toBeUndefined();
      expect((await reopen()).leftover).toEqual([upsert("a")]);
    });

    it("refuses appends before open and after close", async () => {
      const journal = subject.journal();
      opened.push(journal);
      await expect(journal.append([upsert("a")])).rejects.toThrow(/open journal/);
      await journal.open();
      await journal.close();
      await expect(journal.append([upsert("a")])).rejects.toThrow(/open journal/);
    });

    it("refuses a second open of an open journal", async () => {
      const { journal } = await reopen();
      await expect(journal.open()).rejects.toThrow(/open/);
    });
  });
}

/**
 * `leftover` is what a reopen gave back after `appended` (oldest first) with every entry before
 * index `keptFrom` discarded: the journal may drop discarded entries or keep some (a file
 * journal drops whole segments), but it keeps every later one, in order, and nothing else.
 */
function expectSuffix(
  leftover: readonly JournalEntry[],
  appended: readonly JournalEntry[],
  keptFrom: number,
): void {
  const from = appended.length - leftover.length;
  expect(from, "reopen returned entries that were never appended").toBeGreaterThanOrEqual(0);
  expect(from, "reopen lost entries that were not discarded").toBeLessThanOrEqual(keptFrom);
  expect(leftover).toEqual(appended.slice(from));
}
