import { describe, expect, it } from "vitest";
import { createReadinessCheck } from "../../../../../shells/memsvc/container/readiness-check.js";
import { FakeEmbedder, InMemoryVectorStore } from "../../../../../core/testing/index.js";

describe("createReadinessCheck", () => {
  it("is ready when the store pings and the embedder embeds", async () => {
    const ready = createReadinessCheck({
      store: new InMemoryVectorStore(),
      embedder: new FakeEmbedder(),
    });
    await expect(ready()).resolves.toBeUndefined();
  });

  it("fails at once while the store is known to be down, without pinging it", async () => {
    const store = new InMemoryVectorStore();
    let pings = 0;
    store.ping = async () => {
      pings += 1;
    };
    let down = true;
    const ready = createReadinessCheck({
      store,
      embedder: new FakeEmbedder(),
      storeDown: () => down,
    });
    await expect(ready()).rejects.toThrow("vector store unavailable");
    expect(pings).toBe(0);
    down = false;
    await expect(ready()).resolves.toBeUndefined();
  });

  it("is not ready while writes are refused, and says why", async () => {
    let refusal: { reason: string } | undefined = {
      reason: "the write journal's disk is full",
    };
    const ready = createReadinessCheck({
      store: new InMemoryVectorStore(),
      embedder: new FakeEmbedder(),
      writeRefusal: () => refusal,
    });
    await expect(ready()).rejects.toThrow("writes are refused: the write journal's disk is full");
    refusal = undefined;
    await expect(ready()).resolves.toBeUndefined();
  });

  it("gives up on a store that never answers after the probe timeout (a hung Chroma)", async () => {
    const store = new InMemoryVectorStore();
    store.ping = () => new Promise<void>(() => undefined);
    const ready = createReadinessCheck({ store, embedder: new FakeEmbedder(), probeTimeoutMs: 5 });
    const error = (await ready().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("vector store unavailable");
    expect(String((error.cause as Error).message)).toContain("did not answer within 5 ms");
  });

  it("gives up on an embedder that never answers", async () => {
    const embedder = new FakeEmbedder();
    embedder.embedQuery = () => new Promise<number[]>(() => undefined);
    const ready = createReadinessCheck({
      store: new InMemoryVectorStore(),
      embedder,
      probeTimeoutMs: 5,
    });
    await expect(ready()).rejects.toThrow("embedder unavailable");
  });
});
