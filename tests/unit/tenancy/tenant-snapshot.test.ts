import { describe, expect, it } from "vitest";
import { InMemoryEngineSnapshots, InMemoryVectorStore } from "../../../core/testing/index.js";
import { exportOf, tenantFixture } from "./tenant-fixture.js";

describe("the engine snapshot with tenants (issue 23)", () => {
  it("holds every tenant, and a restart from it gives each tenant exactly its own memories", async () => {
    const store = new InMemoryVectorStore();
    const snapshots = new InMemoryEngineSnapshots();
    const first = await tenantFixture({ store, snapshots });
    for (const tenant of ["default", "acme", "globex"]) {
      await first.as(tenant, false, () => first.memory.remember({ content: `note of ${tenant}` }));
    }
    await first.as("acme", false, () => first.memory.remember({ content: "second acme note" }));
    const before = await Promise.all(["default", "acme", "globex"].map((t) => exportOf(first, t)));
    expect(await first.tenants.saveSnapshot()).toBe(true);

    const second = await tenantFixture({ store, snapshots });
    expect(second.tenants.loadedFrom).toBe("snapshot");
    expect(await second.tenants.counts()).toEqual([
      { tenant: "acme", memories: 2 },
      { tenant: "default", memories: 1 },
      { tenant: "globex", memories: 1 },
    ]);
    const after = await Promise.all(["default", "acme", "globex"].map((t) => exportOf(second, t)));
    expect(after).toEqual(before);
    // The mark is cleared before any write: a crash from here on means a full load.
    expect(await store.readSnapshotMark()).toBeUndefined();
  });

  it("keeps a single-user store's snapshot records without any tenant key", async () => {
    const store = new InMemoryVectorStore();
    const snapshots = new InMemoryEngineSnapshots();
    const f = await tenantFixture({ store, snapshots });
    await f.memory.remember({ content: "only the default tenant here" });
    await f.tenants.saveSnapshot();
    const snapshot = await snapshots.load();
    const records = [...(snapshot?.pages(10) ?? [])].flat();
    expect(records).toHaveLength(1);
    expect(records[0]?.metadata).not.toHaveProperty("tenant");
  });
});
