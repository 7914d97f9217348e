import { describe, expect, it } from "vitest";
import { InMemoryEngineSnapshots } from "../../../core/testing/index.js";
import { describeEngineSnapshotsContract } from "../../contracts/engine-snapshots-contract.js";

describeEngineSnapshotsContract("InMemoryEngineSnapshots", async () => ({
  snapshots: new InMemoryEngineSnapshots(),
  cleanup: () => Promise.resolve(),
}));

describe("InMemoryEngineSnapshots", () => {
  it("counts saves and the loads that found a snapshot", async () => {
    const snapshots = new InMemoryEngineSnapshots();
    await snapshots.load();
    await snapshots.save("m", []);
    await snapshots.load();
    expect([snapshots.saves, snapshots.loads]).toEqual([1, 1]);
  });
});
