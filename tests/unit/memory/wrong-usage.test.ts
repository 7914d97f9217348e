import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import { MemoryService, type MemoryServiceDeps } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";
import { T0 } from "./memory-fixture.js";

/** What a plain JavaScript caller can pass where TypeScript would have refused it. */
const untyped = (deps: unknown): MemoryServiceDeps => deps as MemoryServiceDeps;

function constructorError(deps: unknown): unknown {
  try {
    new MemoryService(untyped(deps));
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("a MemoryService built or used the wrong way (QA pass as a library user)", () => {
  it("refuses missing ports in the constructor with config_invalid naming each, not a TypeError in init()", () => {
    const error = constructorError({ store: new InMemoryVectorStore() });
    expect(isAgentServicesError(error, "config_invalid")).toBe(true);
    expect((error as Error).message.split("\n")).toEqual([
      "embedder: expected an Embedder (with embedDocuments, embedQuery), got undefined",
      "clock: expected a Clock (with now), got undefined",
    ]);
    expect((constructorError(undefined) as Error).message).toBe(
      "deps: expected an object with store, embedder and clock, got undefined",
    );
    const wrongStore = constructorError({
      store: {},
      embedder: new FakeEmbedder(),
      clock: new ManualClock(T0),
    });
    expect((wrongStore as Error).message).toBe(
      "store: expected a VectorStore (with bind, upsert, get, updateMetadata, delete, scan, count), got an object without them",
    );
  });

  it("refuses reads and writes before init(), so a store bound to another embedder gets no vector", async () => {
    const store = new InMemoryVectorStore();
    const first = new MemoryService({
      store,
      embedder: new FakeEmbedder({ dimensions: 8 }),
      clock: new ManualClock(T0),
    });
    await first.init();
    await first.remember({ content: "stored by the first service", scope: "permanent" });
    const second = new MemoryService({
      store,
      embedder: new FakeEmbedder({ dimensions: 4 }),
      clock: new ManualClock(T0),
    });
    await expect(second.remember({ content: "written before init" })).rejects.toThrow(
      "MemoryService.remember(): call and await init() first",
    );
    await expect(second.recall({ message: "stored" })).rejects.toThrow(
      "MemoryService.recall(): call and await init() first",
    );
    await expect(second.stats()).rejects.toThrow(
      "MemoryService.stats(): call and await init() first",
    );
    expect(() => second.exportMemories()).toThrow("call and await init() first");
    expect(await store.count()).toBe(1);
    await expect(second.init()).rejects.toMatchObject({ code: "embedder_mismatch" });
  });

  it("answers once init() has resolved", async () => {
    const service = new MemoryService({
      store: new InMemoryVectorStore(),
      embedder: new FakeEmbedder(),
      clock: new ManualClock(T0),
    });
    await service.init();
    await service.remember({ content: "Use tabs in Go files", scope: "permanent" });
    expect((await service.stats()).total_memories).toBe(1);
  });
});
