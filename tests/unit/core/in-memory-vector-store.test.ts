import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { describeVectorStoreContract } from "../../contracts/vector-store-contract.js";
import { describeTenantStoreContract } from "../../contracts/tenant-store-contract.js";

describeVectorStoreContract("InMemoryVectorStore", async () => ({
  store: new InMemoryVectorStore(),
  cleanup: () => Promise.resolve(),
}));

describeTenantStoreContract("InMemoryVectorStore", async () => ({
  store: new InMemoryVectorStore(),
  cleanup: () => Promise.resolve(),
}));

describe("InMemoryVectorStore", () => {
  it("fails every call with store_unavailable while told to fail, and heals after", async () => {
    const store = new InMemoryVectorStore();
    store.failWith(new Error("disk on fire"));
    const error = await store.count().catch((e: unknown) => e);
    expect(isAgentServicesError(error, "store_unavailable")).toBe(true);
    store.failWith(undefined);
    expect(await store.count()).toBe(0);
  });

  it("refuses vectors of the wrong dimension once bound", async () => {
    const store = new InMemoryVectorStore();
    await store.bind({ embedderId: "e", dimensions: 2 });
    const error = await store
      .upsert([{ id: "a", vector: [1, 0, 0], document: "", metadata: {} }])
      .catch((e: unknown) => e);
    expect(isAgentServicesError(error, "embedder_mismatch")).toBe(true);
  });

  it("is unavailable after close", async () => {
    const store = new InMemoryVectorStore();
    await store.close();
    await expect(store.ping()).rejects.toThrow(/unavailable/);
  });
});
