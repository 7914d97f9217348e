import { describe, expect, it } from "vitest";
import { MemoryService } from "../../../core/memory/index.js";
import type { ReplicaSnapshot, ReplicaSnapshots } from "../../../core/ports/replica-snapshots.js";
import { TenantSpace } from "../../../core/tenancy/index.js";
import { FakeEmbedder, InMemorySharedStore, ManualClock } from "../../../core/testing/index.js";

const clock = new ManualClock("2026-11-28T10:00:00Z");

/** Snapshots kept in memory (the file adapter is tested against real files). */
function memorySnapshots(): ReplicaSnapshots & {
  saved: ReplicaSnapshot | undefined;
  enginesRead: number;
} {
  return {
    saved: undefined,
    enginesRead: 0,
    async load() {
      const saved = this.saved;
      const tenants = async () => {
        this.enginesRead += 1;
        return saved?.tenants ?? [];
      };
      return saved === undefined ? undefined : { ...saved, tenants };
    },
    async save(snapshot) {
      this.saved = snapshot;
    },
  };
}

async function startReplica(
  shared: InMemorySharedStore,
  snapshots: ReplicaSnapshots,
  embedder = new FakeEmbedder({ dimensions: 4 }),
  ports = shared.replica(),
) {
  const warnings: string[] = [];
  const tenants = new TenantSpace({
    store: ports.store,
    space: { embedderId: embedder.id, dimensions: embedder.dimensions },
    feed: ports.feed,
    replicaSnapshots: snapshots,
    warn: (message) => warnings.push(message),
    newId: () => globalThis.crypto.randomUUID(),
    create: (parts) =>
      new MemoryService({
        store: parts.store,
        embedder,
        clock,
        locks: ports.locks,
        ...(parts.feed === undefined ? {} : { feed: parts.feed }),
      }),
  });
  await tenants.init();
  return { tenants, warnings };
}

async function stop(replica: { tenants: TenantSpace }): Promise<boolean> {
  await replica.tenants.stopFollowers();
  return replica.tenants.saveSnapshot();
}

async function withMemories(shared: InMemorySharedStore, snapshots: ReplicaSnapshots) {
  const replica = await startReplica(shared, snapshots);
  const service = await replica.tenants.service("default");
  await service.remember({ content: "Deploys run on Fridays", type: "rule" });
  await service.remember({ content: "The build uses pnpm", project: "web" });
  expect(await stop(replica)).toBe(true);
}

describe("a replica's engine snapshot", () => {
  it("is used when the feed still holds its change, and the replica then holds every memory", async () => {
    const shared = new InMemorySharedStore();
    const snapshots = memorySnapshots();
    await withMemories(shared, snapshots);
    const replica = await startReplica(shared, snapshots);
    expect(replica.tenants.loadedFrom).toBe("snapshot");
    expect(replica.tenants.loadedMemories).toBe(2);
    expect(replica.warnings).toEqual([]);
  });

  it("is not used for another embedder's vectors", async () => {
    const shared = new InMemorySharedStore();
    const snapshots = memorySnapshots();
    await withMemories(shared, snapshots);
    const saved = snapshots.saved as ReplicaSnapshot;
    snapshots.saved = { ...saved, space: { embedderId: "other:model", dimensions: 4 } };
    const replica = await startReplica(shared, snapshots);
    expect(replica.tenants.loadedFrom).toBe("store");
    expect(replica.tenants.loadedMemories).toBe(2);
    expect(replica.warnings.join("\n")).toMatch(/its vectors are other:model/);
    // Refused on its header: the engines (the bulk of the file) are never read.
    expect(snapshots.enginesRead).toBe(0);
  });

  it("is not used when the store was restored to before its change", async () => {
    const shared = new InMemorySharedStore();
    const snapshots = memorySnapshots();
    await withMemories(shared, snapshots);
    shared.restoreTo(0);
    const replica = await startReplica(shared, snapshots);
    expect(replica.tenants.loadedFrom).toBe("store");
    expect(replica.tenants.loadedMemories).toBe(0);
    expect(replica.warnings.join("\n")).toMatch(/the store's feed is at 0/);
  });

  it("is not used when the feed was pruned past its change", async () => {
    const shared = new InMemorySharedStore();
    const snapshots = memorySnapshots();
    await withMemories(shared, snapshots);
    const writer = await startReplica(shared, memorySnapshots());
    await (await writer.tenants.service("default")).remember({ content: "A third memory" });
    shared.forgetChangesBefore(shared.head);
    const replica = await startReplica(shared, snapshots);
    expect(replica.tenants.loadedFrom).toBe("store");
    expect(replica.tenants.loadedMemories).toBe(3);
    expect(replica.warnings.join("\n")).toMatch(/no longer holds change 2/);
  });

  it("is saved when the feed's notifications had not arrived by the stop", async () => {
    const shared = new InMemorySharedStore();
    const ports = shared.replica();
    // Only the replica's own commits reach it: the database's notifications are late.
    const feed = {
      ...ports.feed,
      listen: (
        onCommit: Parameters<typeof ports.feed.listen>[0],
        onConnection: Parameters<typeof ports.feed.listen>[1],
      ) => ports.feed.listen((head, own) => own !== undefined && onCommit(head, own), onConnection),
    };
    const snapshots = memorySnapshots();
    const replica = await startReplica(shared, snapshots, undefined, { ...ports, feed });
    await (await replica.tenants.service("acme")).recall({ message: "anything" });
    await (await replica.tenants.service("default")).remember({ content: "Deploys on Fridays" });
    expect(await stop(replica)).toBe(true);
    expect(snapshots.saved?.seq).toBe(shared.head);
  });

  it("is not saved before anything was written (no change to stamp)", async () => {
    const replica = await startReplica(new InMemorySharedStore(), memorySnapshots());
    expect(await stop(replica)).toBe(false);
  });
});
