import { describe, expect, it } from "vitest";
import type { Metadata } from "../../../core/ports/index.js";
import { AccessWriteBehind, MemoryService } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";
import { HOUR, memoryFixture, T0 } from "../memory/memory-fixture.js";

const T0_MS = Date.parse(T0);

/**
 * A store whose access writes answer only when the test opens the gate. They land at once, like
 * a networked store's whose response is still on its way after the commit, or with
 * `landAfterGate` only when the gate opens. `writes` counts them.
 */
class GatedWrites extends InMemoryVectorStore {
  writes = 0;
  landAfterGate = false;
  #open: (() => void) | undefined;
  #gate: Promise<void> | undefined;

  closeGate(): void {
    this.#gate = new Promise<void>((resolve) => (this.#open = resolve));
  }

  openGate(): void {
    this.#open?.();
    this.#gate = undefined;
  }

  override async updateMetadata(
    updates: readonly { id: string; metadata: Metadata }[],
  ): Promise<void> {
    this.writes += 1;
    if (this.landAfterGate) await this.#gate;
    await super.updateMetadata(updates);
    await this.#gate;
  }
}

/** Lets every queued promise continuation and I/O callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function gatedFixture(options = {}) {
  const store = new GatedWrites();
  const fixture = await memoryFixture(options, store);
  return { ...fixture, store };
}

describe("recall access updates written behind the answer", () => {
  it("answers before the access is written, and a get right after already counts it", async () => {
    const { service, store } = await gatedFixture();
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    store.closeGate();
    expect((await service.recall({ message: "deploys" })).memory_count).toBe(1);
    expect((await service.recall({ message: "deploys" })).memory_count).toBe(1);
    expect((await service.get(id)).access_count).toBe(2);
    store.openGate();
    await service.flushAccessUpdates();
    const [record] = await store.get([id]);
    expect(record?.metadata["access_count"]).toBe(2);
  });

  it("writes the count as it is at write time, so accesses during a write join the next one", async () => {
    const { service, store } = await gatedFixture();
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    store.closeGate();
    await Promise.all(Array.from({ length: 20 }, () => service.recall({ message: "deploys" })));
    await settle();
    expect(store.writes).toBe(1);
    await service.recall({ message: "deploys" });
    expect((await service.get(id)).access_count).toBe(21);
    store.openGate();
    await service.flushAccessUpdates();
    expect(store.writes).toBe(2);
    expect((await store.get([id]))[0]?.metadata["access_count"]).toBe(21);
  });

  it("keeps a session memory visible while the access that extends it is still being written", async () => {
    const { service, store, clock } = await gatedFixture({ sessionIdleHours: 10 });
    store.landAfterGate = true;
    const { id } = await service.remember({ content: "current ticket" });
    clock.set(T0_MS + 5 * HOUR);
    store.closeGate();
    expect((await service.recall({ message: "current ticket" })).memory_count).toBe(1);
    // Past the stored expiry (T0 + 10 h), before the extended one (T0 + 15 h).
    clock.set(T0_MS + 12 * HOUR);
    const { results } = await service.search({ message: "current ticket" });
    expect(results.map((r) => r.memory.id)).toEqual([id]);
    expect(await service.sweepExpired()).toBe(0);
    store.openGate();
    await service.flushAccessUpdates();
    expect((await store.get([id]))[0]?.metadata["expires_at_ms"]).toBe(T0_MS + 15 * HOUR);
    clock.set(T0_MS + 15 * HOUR);
    expect(await service.sweepExpired()).toBe(1);
  });

  it("warns about a failed write, still answers, and writes the accesses at the next flush", async () => {
    const store = new InMemoryVectorStore();
    const { service, warnings } = await memoryFixture({}, store);
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    store.failWith(new Error("chroma is down"));
    expect((await service.recall({ message: "deploys" })).memory_count).toBe(1);
    await settle();
    expect(warnings.map((w) => w.message)).toEqual([
      `failed to update access metadata of memory ${id}`,
    ]);
    store.failWith(undefined);
    await service.flushAccessUpdates();
    expect((await store.get([id]))[0]?.metadata["access_count"]).toBe(1);
  });

  it("persists what a restarted service loads back", async () => {
    const store = new InMemoryVectorStore();
    const { service } = await memoryFixture({}, store);
    const { id } = await service.remember({
      content: "Deploys run on Fridays",
      scope: "permanent",
    });
    await service.recall({ message: "deploys" });
    await service.recall({ message: "deploys" });
    await service.flushAccessUpdates();
    const { service: restarted } = await memoryFixture({}, store);
    expect(await restarted.get(id)).toEqual(await service.get(id));
  });
});

describe("access write delay", () => {
  it("merges the accesses of recalls made during the delay into one write, and a flush cuts it short", async () => {
    const store = new GatedWrites();
    let delays = 0;
    const service = new MemoryService({
      store,
      embedder: new FakeEmbedder({ dimensions: 8 }),
      clock: new ManualClock(T0),
      accessWriteDelay: () => {
        delays += 1;
        return new Promise<void>(() => undefined); // never ends by itself
      },
    });
    await service.init();
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    for (let i = 0; i < 3; i++) await service.recall({ message: "deploys" });
    await settle();
    expect(store.writes).toBe(0);
    expect((await service.get(id)).access_count).toBe(3);
    await service.flushAccessUpdates();
    expect(store.writes).toBe(1);
    expect(delays).toBe(1);
    expect((await store.get([id]))[0]?.metadata["access_count"]).toBe(3);
  });
});

describe("AccessWriteBehind", () => {
  it("writes a large round in calls of at most maxIdsPerWrite ids, each id once, with its value at write time", async () => {
    const calls: { id: string; metadata: Metadata }[][] = [];
    let version = 0;
    const behind = new AccessWriteBehind({
      current: (id) => (id === "gone" ? undefined : { access_count: version, id }),
      write: async (updates) => {
        calls.push([...updates]);
        version += 1;
        await settle();
      },
      warn: () => undefined,
      maxIdsPerWrite: 500,
    });
    const ids = Array.from({ length: 1_234 }, (_, i) => `m${i}`);
    behind.mark([...ids, "gone", ...ids.slice(0, 100)]);
    await behind.flush();
    expect(calls.map((c) => c.length)).toEqual([500, 500, 234]);
    expect(calls.flat().map((u) => u.id)).toEqual(ids);
    // Each call reads the values as they are when it is made.
    expect(calls.map((c) => c[0]?.metadata["access_count"])).toEqual([0, 1, 2]);
    expect(behind.pending).toBe(0);
  });
});
