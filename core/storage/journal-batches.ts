import type { JournalEntry } from "../ports/write-journal.js";
import type { Metadata, VectorRecord } from "../ports/vector-store.js";

/**
 * Merges a run of journal entries into as few store writes as possible, with the effect of
 * applying them one after another: consecutive entries of the same kind become one entry (an id
 * upserted twice keeps the last vector and document and the union of the metadata keys, later
 * keys winning; metadata updates of an id merge in order; deletes are deduplicated), and entries
 * of different kinds keep their order. No merged entry holds more than `maxIds` ids, except when
 * a single entry already did.
 *
 * @example
 * mergeEntries([{ op: "delete", ids: ["a"] }, { op: "delete", ids: ["b", "a"] }], 1000);
 * // [{ op: "delete", ids: ["a", "b"] }]
 */
export function mergeEntries(entries: readonly JournalEntry[], maxIds: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  let run: Accumulator | undefined;
  for (const entry of entries) {
    if (run === undefined || run.op !== entry.op || run.size + sizeOf(entry) > maxIds) {
      if (run !== undefined) out.push(run.finish());
      run = accumulator(entry.op);
    }
    run.add(entry);
  }
  if (run !== undefined) out.push(run.finish());
  return out;
}

/** How many ids an entry writes. */
export function sizeOf(entry: JournalEntry): number {
  switch (entry.op) {
    case "upsert":
      return entry.records.length;
    case "update":
      return entry.updates.length;
    case "delete":
      return entry.ids.length;
  }
}

/** The ids an entry writes. */
export function idsOf(entry: JournalEntry): readonly string[] {
  switch (entry.op) {
    case "upsert":
      return entry.records.map((r) => r.id);
    case "update":
      return entry.updates.map((u) => u.id);
    case "delete":
      return entry.ids;
  }
}

interface Accumulator {
  readonly op: JournalEntry["op"];
  /** Ids added so far (an upper bound: repeated ids count each time). */
  size: number;
  add(entry: JournalEntry): void;
  finish(): JournalEntry;
}

function accumulator(op: JournalEntry["op"]): Accumulator {
  const records = new Map<string, VectorRecord>();
  const metadata = new Map<string, Metadata>();
  const ids = new Set<string>();
  const acc: Accumulator = {
    op,
    size: 0,
    add(entry) {
      acc.size += sizeOf(entry);
      if (entry.op === "upsert") {
        for (const record of entry.records) {
          const earlier = records.get(record.id);
          records.set(
            record.id,
            earlier === undefined
              ? record
              : { ...record, metadata: { ...earlier.metadata, ...record.metadata } },
          );
        }
      } else if (entry.op === "update") {
        for (const { id, metadata: keys } of entry.updates) {
          metadata.set(id, { ...metadata.get(id), ...keys });
        }
      } else {
        for (const id of entry.ids) ids.add(id);
      }
    },
    finish() {
      if (op === "upsert") return { op, records: [...records.values()] };
      if (op === "update") {
        return { op, updates: [...metadata].map(([id, keys]) => ({ id, metadata: keys })) };
      }
      return { op, ids: [...ids] };
    },
  };
  return acc;
}
