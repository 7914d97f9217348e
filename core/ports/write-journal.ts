import type { Metadata, VectorRecord } from "./vector-store.js";

/** One write to a {@link VectorStore}, as a {@link WriteJournal} keeps it until the store has it. */
export type JournalEntry =
  | { readonly op: "upsert"; readonly records: readonly VectorRecord[] }
  | {
      readonly op: "update";
      readonly updates: readonly { readonly id: string; readonly metadata: Metadata }[];
    }
  | { readonly op: "delete"; readonly ids: readonly string[] };

/**
 * A write-ahead journal in front of a slow durable store (see `JournaledVectorStore`): a write is
 * acknowledged once it is in the journal, and applied to the store behind the answer.
 *
 * Entries get consecutive positions, starting after the last one {@link WriteJournal.open}
 * returned. {@link WriteJournal.append} resolves only once its entries are durable (they survive
 * a crash of the process and of the machine), and appends resolve in the order they were made;
 * appends made while one is being synced share the next sync. {@link WriteJournal.discardThrough} tells the journal that the store holds every
 * entry up to a position, so it may drop them.
 *
 * @example
 * const leftover = await journal.open();          // entries a crash left, oldest first
 * const at = await journal.append([{ op: "delete", ids: ["a"] }]); // durable now
 * await store.delete(["a"]);
 * await journal.discardThrough(at);
 */
export interface WriteJournal {
  /**
   * Opens the journal; resolves with the entries still in it from earlier runs, oldest first
   * (a torn or corrupt tail, which no append ever acknowledged, is dropped). Call once, first.
   */
  open(): Promise<readonly JournalEntry[]>;
  /** Appends entries; resolves with the position of the last one, once they are durable. */
  append(entries: readonly JournalEntry[]): Promise<number>;
  /** The store holds every entry up to `position` (those from `open()` count from 1). */
  discardThrough(position: number): Promise<void>;
  /** Closes the journal; what was not discarded is returned by the next `open()`. Idempotent. */
  close(): Promise<void>;
}
