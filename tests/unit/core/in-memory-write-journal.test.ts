import { describe, expect, it } from "vitest";
import { InMemoryWriteJournal } from "../../../core/testing/index.js";
import { describeWriteJournalContract } from "../../contracts/write-journal-contract.js";

describeWriteJournalContract("InMemoryWriteJournal", async () => {
  const journal = new InMemoryWriteJournal();
  return { journal: () => journal.reopen(), cleanup: () => Promise.resolve() };
});

describe("InMemoryWriteJournal", () => {
  it("counts appends and shows the entries it keeps", async () => {
    const journal = new InMemoryWriteJournal();
    await journal.open();
    await journal.append([{ op: "delete", ids: ["a"] }]);
    await journal.append([{ op: "delete", ids: ["b"] }]);
    await journal.discardThrough(1);
    expect(journal.appends).toBe(2);
    expect(journal.kept).toEqual([{ op: "delete", ids: ["b"] }]);
  });
});
