import { describe, expect, it } from "vitest";
import type { VectorRecord } from "../../../core/ports/index.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { HOUR, memoryFixture, T0 } from "./memory-fixture.js";

const T0_MS = Date.parse(T0);

describe("duplicate remember", () => {
  it("returns the existing memory's id with stored and deduplicated true, storing nothing new", async () => {
    const { service, store, embedder } = await memoryFixture();
    const first = await service.remember({ content: "Deploys run on Fridays" });
    expect(first).toEqual({ id: first.id, stored: true });
    const second = await service.remember({ content: "  Deploys   run\non Fridays\n" });
    expect(second).toEqual({ id: first.id, stored: true, deduplicated: true });
    expect(await store.count()).toBe(1);
    // The duplicate was recognised without embedding it again.
    expect(embedder.calls.filter((c) => c.method === "documents")).toHaveLength(1);
  });

  it("merges tags, keeps the higher confidence and bumps only updated_at", async () => {
    const { service, clock } = await memoryFixture();
    const { id } = await service.remember({
      content: "Use UTC",
      type: "rule",
      tags: ["time", "ops"],
      confidence: 0.6,
    });
    clock.set(T0_MS + HOUR);
    await service.remember({
      content: "Use UTC",
      type: "rule",
      tags: ["ops", "db"],
      confidence: 0.9,
    });
    clock.set(T0_MS + 2 * HOUR);
    await service.remember({ content: "Use UTC", type: "rule", confidence: 0.2 });
    expect(await service.get(id)).toMatchObject({
      content: "Use UTC",
      tags: ["time", "ops", "db"],
      confidence: 0.9,
      created_at: T0,
      updated_at: new Date(T0_MS + 2 * HOUR).toISOString(),
      last_accessed: T0,
      access_count: 0,
    });
  });

  it("treats a different type, scope, project or letter case as a different memory", async () => {
    const { service, store } = await memoryFixture();
    const base = { content: "Use UTC", type: "rule", scope: "project", project: "a" } as const;
    const ids = new Set<string>();
    for (const input of [
      base,
      { ...base, type: "fact" },
      { ...base, scope: "permanent" },
      { ...base, project: "b" },
      { ...base, content: "use utc" },
    ] as const) {
      const result = await service.remember(input);
      expect(result.deduplicated).toBeUndefined();
      ids.add(result.id);
    }
    expect(ids.size).toBe(5);
    expect(await store.count()).toBe(5);
  });

  it("stores a new memory when the only identical one has expired", async () => {
    const { service, clock } = await memoryFixture();
    const old = await service.remember({ content: "x", scope: "ttl", ttl_seconds: 60 });
    clock.advance(60_000);
    const fresh = await service.remember({ content: "x", scope: "ttl", ttl_seconds: 60 });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.deduplicated).toBeUndefined();
  });

  it("stores a new memory after the identical one was deleted", async () => {
    const { service } = await memoryFixture();
    const old = await service.remember({ content: "x" });
    await service.delete(old.id);
    const fresh = await service.remember({ content: "x" });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh).toEqual({ id: fresh.id, stored: true });
  });

  it("yields exactly one memory from many concurrent identical remember calls", async () => {
    // A store whose writes take a few event-loop turns, as a networked store's do, so without the
    // per-content lock every call would look up "no duplicate yet" before the first write lands.
    class SlowWrites extends InMemoryVectorStore {
      override async upsert(records: readonly VectorRecord[]): Promise<void> {
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        return super.upsert(records);
      }
    }
    const { service, store, embedder } = await memoryFixture({}, new SlowWrites());
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        service.remember({ content: "Deploys run on Fridays", tags: [`t${i % 3}`] }),
      ),
    );
    const ids = new Set(results.map((r) => r.id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.deduplicated === true)).toHaveLength(11);
    expect(await store.count()).toBe(1);
    expect(embedder.calls.filter((c) => c.method === "documents")).toHaveLength(1);
    const [id] = [...ids];
    // Sorted: concurrent calls enter the lock in the order their content hashes finish (Web
    // Crypto runs off the main thread), so which tag merges first is not defined.
    expect([...(await service.get(id ?? "")).tags].sort()).toEqual(["t0", "t1", "t2"]);
  });

  it("stores a new memory with one upsert and merges a duplicate without upserting", async () => {
    class LoggedUpserts extends InMemoryVectorStore {
      readonly upserts: { ids: string[] }[] = [];
      override async upsert(records: readonly VectorRecord[]): Promise<void> {
        this.upserts.push({ ids: records.map((r) => r.id) });
        return super.upsert(records);
      }
    }
    const store = new LoggedUpserts();
    const { service } = await memoryFixture({}, store);
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    await service.remember({ content: "Deploys run on Fridays", tags: ["ops"] });
    expect(store.upserts).toEqual([{ ids: [id] }]);
    expect((await service.get(id)).tags).toEqual(["ops"]);
  });

  it("stores repeated tags of one memory once", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "x", tags: ["a", "b", "a"] });
    expect((await service.get(id)).tags).toEqual(["a", "b"]);
  });
});
