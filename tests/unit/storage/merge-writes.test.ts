import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Metadata, VectorRecord } from "../../../core/ports/vector-store.js";
import { idsOf, mergeWrites, sizeOf, type StoreWrite } from "../../../core/storage/merge-writes.js";

interface Stored {
  readonly vector: readonly number[];
  readonly document: string;
  readonly metadata: Metadata;
}

/** The port's write semantics (`VectorStore`), applied to a map: what "one by one" means. */
function apply(state: Map<string, Stored>, write: StoreWrite): void {
  if (write.op === "upsert") {
    for (const { id, vector, document, metadata } of write.records) {
      state.set(id, { vector, document, metadata: { ...state.get(id)?.metadata, ...metadata } });
    }
  } else if (write.op === "update") {
    for (const { id, metadata } of write.updates) {
      const stored = state.get(id);
      if (stored !== undefined)
        state.set(id, { ...stored, metadata: { ...stored.metadata, ...metadata } });
    }
  } else {
    for (const id of write.ids) state.delete(id);
  }
}

function applyAll(writes: readonly StoreWrite[]): Map<string, Stored> {
  const state = new Map<string, Stored>();
  for (const write of writes) apply(state, write);
  return state;
}

function record(id: string, document: string, metadata: Metadata): VectorRecord {
  return { id, vector: [document.length, 1], document, metadata };
}

const id = fc.constantFrom("a", "b", "c", "d");
/** Metadata of varying key sets: what tells a union of keys from "the last one wins". */
const metadata = fc.dictionary(fc.constantFrom("x", "y", "z"), fc.nat(3), { maxKeys: 3 });
const write: fc.Arbitrary<StoreWrite> = fc.oneof(
  fc.array(fc.record({ id, metadata, n: fc.nat(9) }), { maxLength: 4 }).map((items) => ({
    op: "upsert" as const,
    records: items.map((i) => record(i.id, `${i.id}${i.n}`, i.metadata)),
  })),
  fc
    .array(fc.record({ id, metadata }), { maxLength: 4 })
    .map((updates) => ({ op: "update" as const, updates })),
  fc.array(id, { maxLength: 4 }).map((ids) => ({ op: "delete" as const, ids })),
);

describe("mergeWrites", () => {
  it("keeps the metadata keys of an earlier upsert of the same id, as applying them one by one does (issue 20)", () => {
    const merged = mergeWrites([
      { op: "upsert", records: [record("a", "v1", { x: 1, y: 1 })] },
      { op: "upsert", records: [record("a", "v2", { y: 2 })] },
    ]);
    expect(merged).toEqual([{ op: "upsert", records: [record("a", "v2", { x: 1, y: 2 })] }]);
  });

  it("drops an update without keys and omits a write left without ids", () => {
    expect(
      mergeWrites([
        { op: "update", updates: [{ id: "a", metadata: {} }] },
        { op: "upsert", records: [] },
        { op: "delete", ids: ["b"] },
      ]),
    ).toEqual([{ op: "delete", ids: ["b"] }]);
  });

  it("has the effect of applying the writes one by one, names each id once per write, and keeps to maxIds", () => {
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 10 }),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        (writes, maxIds) => {
          const merged = mergeWrites(writes, maxIds);
          expect(applyAll(merged)).toEqual(applyAll(writes));
          const largest = Math.max(0, ...writes.map(sizeOf));
          for (const one of merged) {
            const ids = idsOf(one);
            expect(ids.length).toBeGreaterThan(0);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids.length).toBeLessThanOrEqual(Math.max(maxIds ?? Infinity, largest));
            if (one.op === "update") {
              for (const u of one.updates)
                expect(Object.keys(u.metadata).length).toBeGreaterThan(0);
            }
          }
          for (let i = 1; i < merged.length; i += 1) {
            if (maxIds === undefined) expect(merged[i]?.op).not.toBe(merged[i - 1]?.op);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
