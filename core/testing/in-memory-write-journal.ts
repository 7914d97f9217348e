import type { JournalEntry, WriteJournal } from "../ports/write-journal.js";

/**
 * {@link WriteJournal} in memory. What is appended and not discarded stays in the object across
 * `close()`, like a file would: open it again (after `reopen()`) to see what a crash would leave.
 *
 * @example
 * const journal = new InMemoryWriteJournal();
 * const store = new JournaledVectorStore(inner, journal, { retryDelay: async () => undefined });
 * // … a "crash": drop `store` without closing it, then
 * const again = new JournaledVectorStore(inner, journal.reopen(), { retryDelay });
 */
export class InMemoryWriteJournal implements WriteJournal {
  #kept: { position: number; entry: JournalEntry }[] = [];
  #next = 1;
  #open = false;
  /** How many appends were made (each would be one sync of a file journal). */
  appends = 0;

  /** Entries kept (appended and not discarded), oldest first. */
  get kept(): readonly JournalEntry[] {
    return this.#kept.map((k) => k.entry);
  }

  async open(): Promise<readonly JournalEntry[]> {
    if (this.#open) throw new Error("InMemoryWriteJournal: already open");
    this.#open = true;
    this.#kept = this.#kept.map((k, i) => ({ position: i + 1, entry: k.entry }));
    this.#next = this.#kept.length + 1;
    return this.kept;
  }

  async append(entries: readonly JournalEntry[]): Promise<number> {
    if (!this.#open) throw new Error("InMemoryWriteJournal: append() needs an open journal");
    this.appends += 1;
    for (const entry of entries) {
      this.#kept.push({ position: this.#next, entry: structuredClone(entry) });
      this.#next += 1;
    }
    return this.#next - 1;
  }

  async discardThrough(position: number): Promise<void> {
    this.#kept = this.#kept.filter((k) => k.position > position);
  }

  async close(): Promise<void> {
    this.#open = false;
  }

  /** The same kept entries, closed, ready to `open()` again (as after a crash). */
  reopen(): InMemoryWriteJournal {
    this.#open = false;
    return this;
  }
}
