/**
 * The one write-merge of the storage path: the journal merges what it drains into the store with
 * it, and the Chroma adapter's `WriteBatcher` merges the writes queued behind its call in flight
 * with it.
 *
 * Merging must have the effect of applying the writes one after another under the port's
 * semantics (`VectorStore`): an upsert of an existing id replaces its vector and document and
 * MERGES the given metadata keys into its metadata (keys it does not name stay); an update merges
 * keys and ignores unknown ids; a delete removes.
 *
 * Until issue 20 there were two merges, and they differed there: the journal's kept, for an id
 * upserted twice, the union of the two metadata (later keys winning), while `WriteBatcher` kept
 * only the last record ("last upsert of an id wins"), within one call and across queued calls.
 * Upserting `a` with `{x: 1}` and then with `{y: 2}` leaves `{x: 1, y: 2}` one after another, but
 * `{y: 2}` through the batcher: key `x` was lost whenever the two upserts shared a Chroma call.
 * Latent because the service's upserts of one id take turns under its id lock and each waits for
 * the store, so two rarely share a call, and most name every key anyway; but `update` leaves the
 * access keys out, so its upsert sharing a call with an earlier one of the same id would have
 * lost them. The journal's behaviour is the correct one, and it is what this function does. The
 * batcher's test sink replaced metadata on upsert, unlike its own contract, so its tests could
 * not see the difference.
 */
import type { Metadata, MetadataValue, VectorRecord } from "../ports/vector-store.js";
import type { JournalEntry } from "../ports/write-journal.js";

/** One write to a `VectorStore`: what the journal keeps and what a write batcher queues. */
export type StoreWrite = JournalEntry;

/**
 * Merges a run of writes into as few as possible, with the effect of applying them one after
 * another: consecutive writes of the same kind become one (an id upserted twice keeps the last
 * vector and document and the union of the metadata keys, later keys winning; metadata updates
 * of an id merge in order; deletes are deduplicated), and writes of different kinds keep their
 * order. What changes nothing is left out: an update without keys, a write without ids. Every
 * merged write names each id once, and none holds more than `maxIds` ids (default: no limit)
 * unless a single input write already did.
 *
 * @example
 * mergeWrites([
 *   { op: "upsert", records: [{ id: "a", vector, document: "v1", metadata: { x: 1 } }] },
 *   { op: "upsert", records: [{ id: "a", vector, document: "v2", metadata: { y: 2 } }] },
 *   { op: "delete", ids: ["b"] },
 *   { op: "delete", ids: ["c", "b"] },
 * ]);
 * // [{ op: "upsert", records: [{ id: "a", vector, document: "v2", metadata: { x: 1, y: 2 } }] },
 * //  { op: "delete", ids: ["b", "c"] }]
 */
export function mergeWrites(
  writes: readonly StoreWrite[],
  maxIds: number = Number.POSITIVE_INFINITY,
): StoreWrite[] {
  const out: StoreWrite[] = [];
  let run: Run | undefined;
  for (const write of writes) {
    // A write that changes nothing neither appears nor splits a run.
    if (changesNothing(write)) continue;
    if (run === undefined || run.op !== write.op || run.size + sizeOf(write) > maxIds) {
      if (run !== undefined) out.push(run.finish());
      run = startRun(write.op);
    }
    run.add(write);
  }
  if (run !== undefined) out.push(run.finish());
  return out;
}

/**
 * How many ids a write names (repeats included).
 *
 * @example
 * sizeOf({ op: "delete", ids: ["a", "b"] }); // 2
 */
export function sizeOf(write: StoreWrite): number {
  switch (write.op) {
    case "upsert":
      return write.records.length;
    case "update":
      return write.updates.length;
    case "delete":
      return write.ids.length;
  }
}

/**
 * The ids a write names.
 *
 * @example
 * idsOf({ op: "update", updates: [{ id: "a", metadata: { n: 1 } }] }); // ["a"]
 */
export function idsOf(write: StoreWrite): readonly string[] {
  switch (write.op) {
    case "upsert":
      return write.records.map((r) => r.id);
    case "update":
      return write.updates.map((u) => u.id);
    case "delete":
      return write.ids;
  }
}

function changesNothing(write: StoreWrite): boolean {
  if (write.op === "update")
    return write.updates.every((u) => Object.keys(u.metadata).length === 0);
  return sizeOf(write) === 0;
}

/** The writes of one run, merged as they come. */
interface Run {
  readonly op: StoreWrite["op"];
  /** Ids added so far (an upper bound: repeated ids count each time). */
  size: number;
  add(write: StoreWrite): void;
  finish(): StoreWrite;
}

function startRun(op: StoreWrite["op"]): Run {
  const records = new Map<string, VectorRecord>();
  const metadata = new Map<string, Record<string, MetadataValue>>();
  const ids = new Set<string>();
  const run: Run = {
    op,
    size: 0,
    add(write) {
      run.size += sizeOf(write);
      if (write.op === "upsert") {
        for (const record of write.records) {
          const earlier = records.get(record.id);
          records.set(
            record.id,
            earlier === undefined
              ? record
              : { ...record, metadata: { ...earlier.metadata, ...record.metadata } },
          );
        }
      } else if (write.op === "update") {
        for (const { id, metadata: keys } of write.updates) {
          metadata.set(id, { ...metadata.get(id), ...keys });
        }
      } else {
        for (const id of write.ids) ids.add(id);
      }
    },
    finish() {
      if (op === "upsert") return { op, records: [...records.values()] };
      if (op === "update") {
        const updates: { id: string; metadata: Metadata }[] = [];
        for (const [id, keys] of metadata) {
          if (Object.keys(keys).length > 0) updates.push({ id, metadata: keys });
        }
        return { op, updates };
      }
      return { op, ids: [...ids] };
    },
  };
  return run;
}
