import { describe, expect, it } from "vitest";
import { MemoryService } from "../../../core/memory/index.js";
import {
  FakeEmbedder,
  InMemoryEngineSnapshots,
  InMemoryVectorStore,
  ManualClock,
} from "../../../core/testing/index.js";
import type { ScanPage } from "../../../core/index.js";
import { sequentialIds, T0 } from "../memory/memory-fixture.js";

/** An in-memory store that counts the pages the startup load reads. */
class CountingStore extends InMemoryVectorStore {
  scans = 0;
  override async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    this.scans += 1;
    return super.scan(cursor, limit);
  }
}

async function start(
  store: InMemoryVectorStore,
  snapshots: InMemoryEngineSnapshots | undefined,
  newId = sequentialIds(),
) {
  const service = new MemoryService({
    store,
    embedder: new FakeEmbedder({ dimensions: 8 }),
    clock: new ManualClock(T0),
    newId,
    ...(snapshots === undefined ? {} : { snapshots }),
  });
  await service.init();
  return service;
}

async function fill(service: MemoryService, n: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let start = from; start < from + n; start += 1000) {
    const { memories } = await service.rememberBatch({
      memories: Array.from({ length: Math.min(1000, from + n - start) }, (_, i) => ({
        content: `deploy note ${start + i} about friday releases`,
        project: `p${(start + i) % 3}`,
        tags: [`t${i % 4}`],
      })),
    });
    ids.push(...memories.map((m) => m.id));
  }
  return ids;
}

describe("engine snapshots", () => {
  // Heavy: 1,200 memories written, saved and loaded. Took 0.6 s and 3.0 s in two runs of the unit
  // project on 2 shared cores with two busy loops running.
  it("a restart after a clean shutdown loads the snapshot, not the store, and answers the same", async () => {
    const store = new CountingStore();
    const snapshots = new InMemoryEngineSnapshots();
    const ids = sequentialIds();
    const first = await start(store, snapshots, ids);
    const kept = await fill(first, 1_200);
    await first.recall({ message: "deploy friday", project: "p1" });
    expect(await first.saveSnapshot()).toBe(true);

    const scansBefore = store.scans;
    const second = await start(store, snapshots, ids);
    expect(second.loadedFrom).toBe("snapshot");
    expect(store.scans).toBe(scansBefore);
    expect(second.loadedMemories).toBe(1_200);
    for (const id of kept.filter((_, i) => i % 97 === 0)) {
      expect(await second.get(id)).toEqual(await first.get(id));
    }
    expect(await second.stats()).toEqual(await first.stats());
    const query = { message: "friday releases", project: "p2", limit: 10 };
    expect(await second.search(query)).toEqual(await first.search(query));
  }, 30_000);

  it("loading a snapshot clears the store's mark, so a crash afterwards means a full load with every write", async () => {
    const store = new CountingStore();
    const snapshots = new InMemoryEngineSnapshots();
    const ids = sequentialIds();
    const first = await start(store, snapshots, ids);
    await fill(first, 20);
    await first.saveSnapshot();

    const second = await start(store, snapshots, ids);
    expect(second.loadedFrom).toBe("snapshot");
    expect(await store.readSnapshotMark()).toBeUndefined();
    const later = await fill(second, 5, 20);
    // No saveSnapshot: the process died. The old snapshot must not be used.
    const third = await start(store, snapshots, ids);
    expect(third.loadedFrom).toBe("store");
    expect(third.loadedMemories).toBe(25);
    for (const id of later) expect(await third.get(id)).toEqual(await second.get(id));
  });

  it("ignores a snapshot saved under another mark", async () => {
    const store = new InMemoryVectorStore();
    const snapshots = new InMemoryEngineSnapshots();
    const first = await start(store, snapshots);
    await fill(first, 10);
    await first.saveSnapshot();
    await store.writeSnapshotMark("another-snapshot");
    const second = await start(store, snapshots);
    expect(second.loadedFrom).toBe("store");
    expect(second.loadedMemories).toBe(10);
    expect(await store.readSnapshotMark()).toBeUndefined();
  });

  it("keeps the access counts recalled before the shutdown", async () => {
    const store = new InMemoryVectorStore();
    const snapshots = new InMemoryEngineSnapshots();
    const first = await start(store, snapshots);
    const [id] = await fill(first, 3);
    await first.recall({ message: "deploy note 0 about friday releases", project: "p0" });
    const counted = (await first.get(id ?? ""))?.access_count;
    expect(counted).toBeGreaterThan(0);
    await first.saveSnapshot();
    const second = await start(store, snapshots);
    expect(second.loadedFrom).toBe("snapshot");
    expect((await second.get(id ?? ""))?.access_count).toBe(counted);
  });

  it("waits for the writes in flight before saving, and refuses writes after", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    class SlowStore extends InMemoryVectorStore {
      override async upsert(records: Parameters<InMemoryVectorStore["upsert"]>[0]) {
        await held;
        return super.upsert(records);
      }
    }
    const store = new SlowStore();
    const snapshots = new InMemoryEngineSnapshots();
    const first = await start(store, snapshots);
    const inFlight = first.remember({ content: "written while shutting down" });
    const saving = first.saveSnapshot();
    await expect(first.remember({ content: "too late" })).rejects.toMatchObject({
      code: "store_unavailable",
    });
    release();
    const { id } = await inFlight;
    expect(await saving).toBe(true);
    const second = await start(store, snapshots);
    expect(second.loadedFrom).toBe("snapshot");
    expect((await second.get(id)).content).toBe("written while shutting down");
    expect(second.loadedMemories).toBe(1);
  });

  it("saves nothing without a place for snapshots, and loads from the store", async () => {
    const store = new InMemoryVectorStore();
    const first = await start(store, undefined);
    await fill(first, 4);
    expect(await first.saveSnapshot()).toBe(false);
    expect(await store.readSnapshotMark()).toBeUndefined();
    const second = await start(store, undefined);
    expect(second.loadedFrom).toBe("store");
    expect(second.loadedMemories).toBe(4);
  });
});
