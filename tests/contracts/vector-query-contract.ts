import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RecordFilter, VectorQuery } from "../../core/ports/vector-query.js";
import type { Metadata, VectorRecord, VectorStore } from "../../core/ports/vector-store.js";

/**
 * What a contract run needs: a fresh, empty store to write the records through, a query over
 * the same records, and a way to dispose of both.
 */
export interface VectorQueryUnderTest {
  store: VectorStore;
  query: VectorQuery;
  cleanup(): Promise<void>;
}

const DIMS = 4;

/**
 * Five records with distinct similarities to `[1, 0, 0, 0]` (a 1, b 0.994, c 0.196, d 0, e -1)
 * and metadata of every kind; `d` and `e` have no `expires` key, `e` no `permanent` key.
 */
const RECORDS: readonly VectorRecord[] = [
  rec("a", [1, 0, 0, 0], { project: "billing", n: 1, permanent: true, expires: 100 }),
  rec("b", [0.9, 0.1, 0, 0], { project: "billing", n: 2, permanent: false, expires: 200 }),
  rec("c", [0.2, 1, 0, 0], { project: "search", n: 3, permanent: true, expires: 300 }),
  rec("d", [0, 0, 1, 0], { project: "search", n: 4, permanent: false }),
  rec("e", [-1, 0, 0, 0], { project: "ops", n: 5 }),
];

function rec(id: string, vector: number[], metadata: Metadata): VectorRecord {
  return { id, vector, document: `doc ${id} ✓`, metadata };
}

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
const sorted = (records: readonly { id: string }[]) => ids(records).sort();

/** Filters and the records (of {@link RECORDS}) that pass them. */
const FILTERS: readonly { name: string; filter: RecordFilter; passing: string[] }[] = [
  {
    name: "eq on a string",
    filter: { key: "project", op: "eq", value: "billing" },
    passing: ["a", "b"],
  },
  { name: "eq on a number", filter: { key: "n", op: "eq", value: 3 }, passing: ["c"] },
  {
    name: "eq on a boolean",
    filter: { key: "permanent", op: "eq", value: true },
    passing: ["a", "c"],
  },
  { name: "eq matching nothing", filter: { key: "project", op: "eq", value: "none" }, passing: [] },
  {
    name: "in on strings",
    filter: { key: "project", op: "in", value: ["ops", "search", "none"] },
    passing: ["c", "d", "e"],
  },
  { name: "in on numbers", filter: { key: "n", op: "in", value: [1, 3, 99] }, passing: ["a", "c"] },
  // A record without the key fails gt and lte.
  { name: "gt", filter: { key: "expires", op: "gt", value: 100 }, passing: ["b", "c"] },
  { name: "lte", filter: { key: "expires", op: "lte", value: 200 }, passing: ["a", "b"] },
  {
    name: "and",
    filter: {
      and: [
        { key: "project", op: "eq", value: "billing" },
        { key: "expires", op: "gt", value: 150 },
      ],
    },
    passing: ["b"],
  },
  {
    name: "or",
    filter: {
      or: [
        { key: "project", op: "eq", value: "ops" },
        { key: "n", op: "lte", value: 1 },
      ],
    },
    passing: ["a", "e"],
  },
  {
    name: "and and or of one clause each, nested",
    filter: { and: [{ or: [{ key: "permanent", op: "eq", value: false }] }] },
    passing: ["b", "d"],
  },
  {
    name: "or of ands",
    filter: {
      or: [
        {
          and: [
            { key: "project", op: "eq", value: "search" },
            { key: "permanent", op: "eq", value: true },
          ],
        },
        { and: [{ key: "n", op: "gt", value: 4 }] },
      ],
    },
    passing: ["c", "e"],
  },
];

/**
 * The behaviour every {@link VectorQuery} must have (see its doc comment): `nearest` by cosine
 * similarity, most similar first, `find` and `count` by a {@link RecordFilter} whose meaning is
 * the one `matchesRecordFilter` gives it. The collections here are small enough that an
 * approximate nearest-neighbour search is exact. Runs against `InMemoryVectorStore` in unit
 * tests and `ChromaVectorQuery` in integration tests.
 *
 * @example
 * describeVectorQueryContract("InMemoryVectorStore", async () => {
 *   const store = new InMemoryVectorStore();
 *   return { store, query: store, cleanup: async () => {} };
 * });
 */
export function describeVectorQueryContract(
  name: string,
  make: () => Promise<VectorQueryUnderTest>,
): void {
  describe(`VectorQuery contract: ${name}`, () => {
    let subject: VectorQueryUnderTest;
    let query: VectorQuery;

    beforeEach(async () => {
      subject = await make();
      query = subject.query;
      await subject.store.bind({ embedderId: "contract-embedder", dimensions: DIMS });
      await subject.store.upsert(RECORDS);
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("finds the nearest records, most similar first, with their cosine similarity", async () => {
      const hits = await query.nearest([2, 0, 0, 0], 5, undefined);
      expect(ids(hits.map((h) => h.record))).toEqual(["a", "b", "c", "d", "e"]);
      const similarities = hits.map((h) => h.similarity);
      const expected = [1, 0.9 / Math.hypot(0.9, 0.1), 0.2 / Math.hypot(0.2, 1), 0, -1];
      similarities.forEach((s, i) => expect(s).toBeCloseTo(expected[i] as number, 3));
    });

    it("returns the stored document and metadata of each nearest record", async () => {
      const [hit] = await query.nearest([0, 0, 1, 0], 1, undefined);
      expect(hit?.record).toEqual({
        id: "d",
        document: "doc d ✓",
        metadata: { project: "search", n: 4, permanent: false },
      });
    });

    it("returns at most limit nearest records, and none for a limit of 0", async () => {
      expect(ids((await query.nearest([1, 0, 0, 0], 2, undefined)).map((h) => h.record))).toEqual([
        "a",
        "b",
      ]);
      expect(await query.nearest([1, 0, 0, 0], 0, undefined)).toEqual([]);
    });

    it("returns only nearest records passing the filter, in order of similarity", async () => {
      const hits = await query.nearest([1, 0, 0, 0], 10, {
        key: "project",
        op: "in",
        value: ["search", "ops"],
      });
      expect(ids(hits.map((h) => h.record))).toEqual(["c", "d", "e"]);
      expect(
        await query.nearest([1, 0, 0, 0], 10, { key: "project", op: "eq", value: "none" }),
      ).toEqual([]);
    });

    for (const { name: filterName, filter, passing } of FILTERS) {
      it(`finds and counts the records passing ${filterName}`, async () => {
        expect(sorted(await query.find(filter, 10))).toEqual(passing);
        expect(await query.count(filter)).toBe(passing.length);
        const near = await query.nearest([1, 0, 0, 0], 10, filter);
        expect(sorted(near.map((h) => h.record))).toEqual(passing);
      });
    }

    it("returns the stored document and metadata of each record found", async () => {
      expect(await query.find({ key: "n", op: "eq", value: 2 }, 10)).toEqual([
        {
          id: "b",
          document: "doc b ✓",
          metadata: { project: "billing", n: 2, permanent: false, expires: 200 },
        },
      ]);
    });

    it("finds at most limit records, each passing the filter", async () => {
      const filter: RecordFilter = { key: "project", op: "in", value: ["billing", "search"] };
      const found = await query.find(filter, 3);
      expect(found).toHaveLength(3);
      expect(new Set(ids(found)).size).toBe(3);
      for (const id of ids(found)) expect(["a", "b", "c", "d"]).toContain(id);
      expect(await query.find(filter, 0)).toEqual([]);
    });

    it("sees later writes: updates, deletes and new records", async () => {
      const permanent: RecordFilter = { key: "permanent", op: "eq", value: true };
      await subject.store.updateMetadata([{ id: "b", metadata: { permanent: true } }]);
      await subject.store.delete(["a"]);
      await subject.store.upsert([rec("f", [0, 0, 0, 1], { project: "ops", permanent: true })]);
      expect(sorted(await query.find(permanent, 10))).toEqual(["b", "c", "f"]);
      expect(await query.count(permanent)).toBe(3);
      const [nearest] = await query.nearest([1, 0, 0, 0], 1, undefined);
      expect(nearest?.record.id).toBe("b");
    });
  });
}
