import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../core/errors.js";
import type { VectorRecord, VectorStore } from "../../core/ports/vector-store.js";

/** What a contract run needs: a fresh, empty store and a way to dispose of it. */
export interface VectorStoreUnderTest {
  store: VectorStore;
  cleanup(): Promise<void>;
}

const DIMS = 4;
/** Far-future expiry (max Date ms): memories that never expire are stored with it. */
const FAR_FUTURE = 8_640_000_000_000_000;

function record(
  id: string,
  vector: number[],
  metadata: VectorRecord["metadata"] = {},
): VectorRecord {
  return { id, vector, document: `doc ${id}`, metadata };
}

/**
 * The behaviour every VectorStore must have. Runs against the in-memory fake in unit tests and
 * against the real Chroma adapter in integration tests, so the fake stays honest.
 *
 * @example
 * describeVectorStoreContract("InMemoryVectorStore", async () => ({
 *   store: new InMemoryVectorStore(),
 *   cleanup: async () => {},
 * }));
 */
export function describeVectorStoreContract(
  name: string,
  make: () => Promise<VectorStoreUnderTest>,
): void {
  describe(`VectorStore contract: ${name}`, () => {
    let subject: VectorStoreUnderTest;
    let store: VectorStore;

    beforeEach(async () => {
      subject = await make();
      store = subject.store;
      await store.bind({ embedderId: "contract-embedder", dimensions: DIMS });
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("accepts a second bind to the same vector space", async () => {
      await expect(
        store.bind({ embedderId: "contract-embedder", dimensions: DIMS }),
      ).resolves.toBeUndefined();
    });

    it("refuses a bind to another embedder with embedder_mismatch naming both", async () => {
      const error = await store.bind({ embedderId: "other-embedder", dimensions: DIMS }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAgentServicesError(error, "embedder_mismatch")).toBe(true);
      expect((error as Error).message).toContain("contract-embedder");
      expect((error as Error).message).toContain("other-embedder");
    });

    it("refuses a bind with another dimension", async () => {
      const error = await store
        .bind({ embedderId: "contract-embedder", dimensions: DIMS + 1 })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isAgentServicesError(error, "embedder_mismatch")).toBe(true);
    });

    it("round-trips documents and flat metadata of every scalar kind", async () => {
      const metadata = {
        text: "ünïcode, commas; and | pipes",
        empty: "",
        int: 42,
        float: 0.25,
        zero: 0,
        negative: -7,
        far: FAR_FUTURE,
        yes: true,
        no: false,
      };
      await store.upsert([record("a", [1, 0, 0, 0], metadata)]);
      const [got] = await store.get(["a"]);
      expect(got).toEqual({ id: "a", document: "doc a", metadata });
    });

    it("round-trips a fresh upsert of new ids", async () => {
      await store.upsert([record("a", [1, 0, 0, 0], { kept: 1 })]);
      await store.upsert(
        [record("b", [0, 1, 0, 0], { v: "b", n: 2 }), record("c", [0, 0, 1, 0], { v: "c" })],
        { fresh: true },
      );
      expect(await store.get(["a", "b", "c"])).toEqual([
        { id: "a", document: "doc a", metadata: { kept: 1 } },
        { id: "b", document: "doc b", metadata: { v: "b", n: 2 } },
        { id: "c", document: "doc c", metadata: { v: "c" } },
      ]);
      const [top] = await store.query({ vector: [0, 1, 0, 0], topK: 1 });
      expect(top?.id).toBe("b");
      expect(await store.count({ field: "v", op: "in", values: ["b", "c"] })).toBe(2);
    });

    it("replaces a record when upserting an existing id", async () => {
      await store.upsert([record("a", [1, 0, 0, 0], { v: 1 })]);
      await store.upsert([{ id: "a", vector: [0, 1, 0, 0], document: "new", metadata: { v: 2 } }]);
      expect(await store.get(["a"])).toEqual([{ id: "a", document: "new", metadata: { v: 2 } }]);
      const [top] = await store.query({ vector: [0, 1, 0, 0], topK: 1 });
      expect(top?.id).toBe("a");
      expect(top?.similarity).toBeCloseTo(1, 4);
      expect(await store.count()).toBe(1);
    });

    it("drops metadata keys the replacing record does not have", async () => {
      await store.upsert([record("a", [1, 0, 0, 0], { old: "gone", kept: 1 })]);
      await store.upsert([record("a", [1, 0, 0, 0], { kept: 2 })]);
      expect(await store.get(["a"])).toEqual([
        { id: "a", document: "doc a", metadata: { kept: 2 } },
      ]);
      expect(await store.count({ field: "old", op: "eq", value: "gone" })).toBe(0);
    });

    it("omits unknown ids from get and keeps the order of the ids asked for", async () => {
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      const got = await store.get(["b", "missing", "a"]);
      expect(got.map((r) => r.id)).toEqual(["b", "a"]);
      expect(await store.get([])).toEqual([]);
    });

    it("returns the most similar records first with cosine similarity, at most topK", async () => {
      await store.upsert([
        record("same", [1, 0, 0, 0]),
        record("close", [0.9, 0.1, 0, 0]),
        record("orthogonal", [0, 0, 1, 0]),
        record("opposite", [-1, 0, 0, 0]),
      ]);
      const hits = await store.query({ vector: [2, 0, 0, 0], topK: 3 });
      expect(hits.map((h) => h.id)).toEqual(["same", "close", "orthogonal"]);
      expect(hits[0]?.similarity).toBeCloseTo(1, 4);
      expect(hits[1]?.similarity).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 4);
      expect(hits[2]?.similarity).toBeCloseTo(0, 4);
      expect(hits[0]?.document).toBe("doc same");
      const all = await store.query({ vector: [1, 0, 0, 0], topK: 10 });
      expect(all.at(-1)?.id).toBe("opposite");
      expect(all.at(-1)?.similarity).toBeCloseTo(-1, 4);
    });

    it("returns nothing from a query on an empty store", async () => {
      expect(await store.query({ vector: [1, 0, 0, 0], topK: 5 })).toEqual([]);
    });

    describe("filters", () => {
      beforeEach(async () => {
        await store.upsert([
          record("p1", [1, 0, 0, 0], { project: "billing", scope: "project", exp: 100 }),
          record("p2", [0.8, 0.2, 0, 0], { project: "search", scope: "project", exp: 200 }),
          record("g1", [0.7, 0.3, 0, 0], { project: "", scope: "permanent", exp: FAR_FUTURE }),
          record("s1", [0.6, 0.4, 0, 0], { scope: "session", exp: 300, flag: true }),
        ]);
      });

      it("matches equality on strings and booleans", async () => {
        const ids = async (filter: Parameters<VectorStore["find"]>[0]) =>
          (await store.find(filter)).map((r) => r.id).sort();
        expect(await ids({ field: "project", op: "eq", value: "billing" })).toEqual(["p1"]);
        expect(await ids({ field: "flag", op: "eq", value: true })).toEqual(["s1"]);
      });

      it("never matches a comparison on a missing field", async () => {
        const hits = await store.query({
          vector: [1, 0, 0, 0],
          topK: 10,
          filter: { field: "project", op: "eq", value: "search" },
        });
        expect(hits.map((h) => h.id)).toEqual(["p2"]);
        expect(await store.count({ field: "flag", op: "eq", value: false })).toBe(0);
      });

      it("compares numbers with gt, gte, lt and lte", async () => {
        const count = (op: "gt" | "gte" | "lt" | "lte", value: number) =>
          store.count({ field: "exp", op, value });
        expect(await count("gt", 200)).toBe(2);
        expect(await count("gte", 200)).toBe(3);
        expect(await count("lt", 200)).toBe(1);
        expect(await count("lte", 200)).toBe(2);
        expect(await count("gt", FAR_FUTURE - 1)).toBe(1);
      });

      it("matches membership with in", async () => {
        const found = await store.find({
          field: "scope",
          op: "in",
          values: ["permanent", "session"],
        });
        expect(found.map((r) => r.id).sort()).toEqual(["g1", "s1"]);
      });

      it("combines filters with and and or, also inside a similarity query", async () => {
        const filter = {
          and: [
            {
              or: [
                { field: "project", op: "eq", value: "billing" },
                { field: "scope", op: "eq", value: "permanent" },
              ],
            },
            { field: "exp", op: "gt", value: 150 },
          ],
        } as const;
        const hits = await store.query({ vector: [1, 0, 0, 0], topK: 10, filter });
        expect(hits.map((h) => h.id)).toEqual(["g1"]);
        const either = await store.query({
          vector: [1, 0, 0, 0],
          topK: 10,
          filter: {
            or: [
              { field: "project", op: "eq", value: "billing" },
              { field: "scope", op: "eq", value: "permanent" },
            ],
          },
        });
        expect(either.map((h) => h.id)).toEqual(["p1", "g1"]);
      });

      it("matches nothing with an empty in or or, and everything with an empty and", async () => {
        expect(await store.count({ field: "scope", op: "in", values: [] })).toBe(0);
        expect(await store.count({ or: [] })).toBe(0);
        expect(await store.count({ and: [] })).toBe(4);
        const hits = await store.query({ vector: [1, 0, 0, 0], topK: 10, filter: { or: [] } });
        expect(hits).toEqual([]);
      });

      it("caps find at the limit", async () => {
        expect(await store.find(undefined, 2)).toHaveLength(2);
        expect(await store.find()).toHaveLength(4);
      });
    });

    it("merges metadata updates and ignores unknown ids", async () => {
      await store.upsert([record("a", [1, 0, 0, 0], { count: 1, keep: "yes" })]);
      await store.updateMetadata([
        { id: "a", metadata: { count: 2, added: true } },
        { id: "ghost", metadata: { count: 9 } },
      ]);
      expect(await store.get(["a"])).toEqual([
        { id: "a", document: "doc a", metadata: { count: 2, keep: "yes", added: true } },
      ]);
      expect(await store.get(["ghost"])).toEqual([]);
      const [hit] = await store.query({ vector: [1, 0, 0, 0], topK: 1 });
      expect(hit?.metadata).toEqual({ count: 2, keep: "yes", added: true });
    });

    it("deletes by id and reports how many existed", async () => {
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      expect(await store.delete(["a", "ghost"])).toBe(1);
      expect(await store.get(["a", "b"])).toEqual([{ id: "b", document: "doc b", metadata: {} }]);
      expect(await store.delete(["a"])).toBe(0);
      expect(await store.count()).toBe(1);
    });

    it("counts every record without a filter", async () => {
      expect(await store.count()).toBe(0);
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      expect(await store.count()).toBe(2);
    });

    it("answers ping when it is up", async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
