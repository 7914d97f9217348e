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
 * against the real Chroma and PostgreSQL adapters in integration tests, so the fake stays honest.
 * A store without a snapshot mark (PostgreSQL: replicas always load from the store) passes
 * `{ snapshotMark: false }` and is checked to have none.
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
  options: { readonly snapshotMark?: boolean } = {},
): void {
  const snapshotMark = options.snapshotMark ?? true;
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

    it("replaces the vector and document of an existing id and merges its metadata", async () => {
      await store.upsert([record("a", [1, 0, 0, 0], { v: 1, kept: "yes" })]);
      await store.upsert([{ id: "a", vector: [0, 1, 0, 0], document: "new", metadata: { v: 2 } }]);
      expect(await store.get(["a"])).toEqual([
        { id: "a", document: "new", metadata: { v: 2, kept: "yes" } },
      ]);
      const { records } = await store.scan(undefined, 10);
      expect(records).toHaveLength(1);
      expect(records[0]?.vector[1]).toBeCloseTo(1, 5);
      expect(await store.count()).toBe(1);
    });

    it("rebinds to another vector space only when told to replace it", async () => {
      await expect(
        store.bind({ embedderId: "next-embedder", dimensions: DIMS }, { replace: true }),
      ).resolves.toBeUndefined();
      await expect(
        store.bind({ embedderId: "next-embedder", dimensions: DIMS }),
      ).resolves.toBeUndefined();
      await expect(
        store.bind({ embedderId: "contract-embedder", dimensions: DIMS }),
      ).rejects.toThrow(/next-embedder/);
    });

    it("omits unknown ids from get and keeps the order of the ids asked for", async () => {
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      const got = await store.get(["b", "missing", "a"]);
      expect(got.map((r) => r.id)).toEqual(["b", "a"]);
      expect(await store.get([])).toEqual([]);
    });

    it("scans every record exactly once, with its vector, page by page", async () => {
      const records = Array.from({ length: 23 }, (_, i) =>
        record(`r${String(i).padStart(2, "0")}`, [1, i, 0, 0], { n: i, far: FAR_FUTURE }),
      );
      await store.upsert(records);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.scan(cursor, 5);
        expect(page.records.length).toBeLessThanOrEqual(5);
        for (const r of page.records) {
          seen.push(r.id);
          const n = Number(r.id.slice(1));
          expect(r.document).toBe(`doc ${r.id}`);
          expect(r.metadata).toEqual({ n, far: FAR_FUTURE });
          // Stores may normalise or keep vectors as given: compare directions.
          expect(r.vector[1]! / r.vector[0]!).toBeCloseTo(n, 3);
        }
        cursor = page.next;
        pages += 1;
      } while (cursor !== undefined && pages < 20);
      expect(seen.sort()).toEqual(records.map((r) => r.id));
      expect(pages).toBeGreaterThanOrEqual(5);
    });

    it("scans an empty store as one empty last page", async () => {
      expect(await store.scan(undefined, 100)).toEqual({ records: [], next: undefined });
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
    });

    it("deletes by id and reports how many existed", async () => {
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      expect(await store.delete(["a", "ghost"])).toBe(1);
      expect(await store.get(["a", "b"])).toEqual([{ id: "b", document: "doc b", metadata: {} }]);
      expect(await store.delete(["a"])).toBe(0);
      expect(await store.count()).toBe(1);
    });

    it("counts every record", async () => {
      expect(await store.count()).toBe(0);
      await store.upsert([record("a", [1, 0, 0, 0]), record("b", [0, 1, 0, 0])]);
      expect(await store.count()).toBe(2);
    });

    it("answers ping when it is up", async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it.runIf(!snapshotMark)("keeps no snapshot mark, so the service never loads a snapshot", () => {
      expect(store.readSnapshotMark).toBeUndefined();
      expect(store.writeSnapshotMark).toBeUndefined();
    });

    it.runIf(snapshotMark)(
      "keeps a snapshot mark until it is cleared, beside the bound embedder",
      async () => {
        if (store.readSnapshotMark === undefined || store.writeSnapshotMark === undefined) {
          throw new Error("this store keeps no snapshot mark");
        }
        expect(await store.readSnapshotMark()).toBeUndefined();
        await store.writeSnapshotMark("mark-1");
        await store.upsert([record("a", [1, 0, 0, 0])]);
        expect(await store.readSnapshotMark()).toBe("mark-1");
        await store.writeSnapshotMark(undefined);
        expect(await store.readSnapshotMark()).toBeUndefined();
        // The mark lives beside the binding and does not disturb it.
        await expect(
          store.bind({ embedderId: "contract-embedder", dimensions: DIMS }),
        ).resolves.toBeUndefined();
        await expect(store.bind({ embedderId: "other", dimensions: DIMS })).rejects.toThrow();
      },
    );
  });
}
