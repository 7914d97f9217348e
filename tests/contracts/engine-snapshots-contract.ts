import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EngineSnapshot, EngineSnapshots } from "../../core/ports/engine-snapshots.js";
import type { VectorRecord } from "../../core/ports/vector-store.js";

/** What a contract run needs: snapshots over a fresh place that holds none, and a disposer. */
export interface EngineSnapshotsUnderTest {
  snapshots: EngineSnapshots;
  cleanup(): Promise<void>;
}

/** Records with vector components exact in float32, unicode text and every metadata kind. */
function records(n: number, tag = "r"): VectorRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${String(i).padStart(4, "0")}`,
    document: `note ${i}: déploiement le vendredi ✓ "quoted" \n second line`,
    metadata: { type: "fact", confidence: i / 4, permanent: i % 2 === 0, tags: `["t${i}"]` },
    vector: [i / 8, -0.5, 0.25, 1],
  }));
}

/** Every record of a snapshot, read in pages of `pageSize`. */
function all(snapshot: EngineSnapshot | undefined, pageSize = 3): VectorRecord[] {
  return [...(snapshot?.pages(pageSize) ?? [])].flat();
}

/**
 * The behaviour every {@link EngineSnapshots} must have (see its doc comment): no snapshot until
 * one is saved, a save replaced whole by the next, the records and mark loaded back as saved,
 * page by page. Runs against `InMemoryEngineSnapshots` in unit tests and `FileEngineSnapshots`
 * in integration tests. (What a torn file does is the file adapter's own test.)
 *
 * @example
 * describeEngineSnapshotsContract("InMemoryEngineSnapshots", async () => ({
 *   snapshots: new InMemoryEngineSnapshots(),
 *   cleanup: async () => {},
 * }));
 */
export function describeEngineSnapshotsContract(
  name: string,
  make: () => Promise<EngineSnapshotsUnderTest>,
): void {
  describe(`EngineSnapshots contract: ${name}`, () => {
    let subject: EngineSnapshotsUnderTest;
    let snapshots: EngineSnapshots;

    beforeEach(async () => {
      subject = await make();
      snapshots = subject.snapshots;
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("has no snapshot before the first save", async () => {
      expect(await snapshots.load()).toBeUndefined();
    });

    it("loads back the records it saved, under their mark, with their count", async () => {
      const saved = records(10);
      await snapshots.save("mark-1", saved);
      const loaded = await snapshots.load();
      expect(loaded?.mark).toBe("mark-1");
      expect(loaded?.count).toBe(10);
      expect(all(loaded)).toEqual(saved);
    });

    it("hands the records out in pages of the size asked for, each record once", async () => {
      await snapshots.save("m", records(10));
      const loaded = await snapshots.load();
      expect([...(loaded?.pages(4) ?? [])].map((page) => page.length)).toEqual([4, 4, 2]);
      expect([...(loaded?.pages(10) ?? [])].map((page) => page.length)).toEqual([10]);
      expect([...(loaded?.pages(1) ?? [])]).toHaveLength(10);
      // Reading the pages again reads the same records again.
      expect(all(loaded, 7)).toEqual(records(10));
    });

    it("saves an empty snapshot: count 0 and no records", async () => {
      await snapshots.save("empty", []);
      const loaded = await snapshots.load();
      expect(loaded?.mark).toBe("empty");
      expect(loaded?.count).toBe(0);
      expect(all(loaded)).toEqual([]);
    });

    it("takes the records from any iterable, read once", async () => {
      const saved = records(5);
      function* once(): Generator<VectorRecord> {
        yield* saved;
      }
      await snapshots.save("generated", once());
      expect(all(await snapshots.load())).toEqual(saved);
    });

    it("replaces the previous snapshot whole", async () => {
      await snapshots.save("old", records(5, "old"));
      await snapshots.save("new", records(2, "new"));
      const loaded = await snapshots.load();
      expect(loaded?.mark).toBe("new");
      expect(loaded?.count).toBe(2);
      expect(all(loaded)).toEqual(records(2, "new"));
    });

    it("keeps a copy: later changes to the saved records do not reach the snapshot", async () => {
      const saved = records(3);
      await snapshots.save("m", saved);
      const first = saved[0] as unknown as { vector: number[]; metadata: Record<string, unknown> };
      first.vector[0] = 42;
      first.metadata.type = "changed";
      expect(all(await snapshots.load())).toEqual(records(3));
    });

    it("leaves a loaded snapshot as it was when a new one is saved", async () => {
      await snapshots.save("old", records(4, "old"));
      const loaded = await snapshots.load();
      await snapshots.save("new", records(1, "new"));
      expect(loaded?.mark).toBe("old");
      expect(all(loaded)).toEqual(records(4, "old"));
    });
  });
}
