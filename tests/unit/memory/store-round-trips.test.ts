import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../core/errors.js";
import { PROJECT_OVERFETCH_FACTOR } from "../../../core/memory/candidate-query.js";
import { projectFilter } from "../../../core/memory/memory-filters.js";
import { liveFilter } from "../../../core/memory/index.js";
import type {
  Metadata,
  StoredRecord,
  VectorFilter,
  VectorMatch,
  VectorQuery,
} from "../../../core/ports/index.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { memoryFixture, T0 } from "./memory-fixture.js";

const T0_MS = Date.parse(T0);

/** Records every store call the memory service makes (after `reset()`), with its argument. */
class RecordingStore extends InMemoryVectorStore {
  calls: { method: string; arg?: unknown }[] = [];

  reset(): void {
    this.calls = [];
  }

  named(method: string): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.arg);
  }

  override async query(query: VectorQuery): Promise<VectorMatch[]> {
    this.calls.push({ method: "query", arg: { topK: query.topK, filter: query.filter } });
    return super.query(query);
  }

  override async get(ids: readonly string[]): Promise<StoredRecord[]> {
    this.calls.push({ method: "get", arg: [...ids] });
    return super.get(ids);
  }

  override async find(filter?: VectorFilter, limit?: number): Promise<StoredRecord[]> {
    this.calls.push({ method: "find", arg: filter });
    return super.find(filter, limit);
  }

  override async updateMetadata(
    updates: readonly { id: string; metadata: Metadata }[],
  ): Promise<void> {
    this.calls.push({ method: "updateMetadata", arg: updates.map((u) => u.id) });
    // A networked write takes a few event-loop turns: recalls arriving meanwhile must queue.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    return super.updateMetadata(updates);
  }
}

async function fixtureWith(count: number, scope: "permanent" | "session" = "permanent") {
  const store = new RecordingStore();
  const fixture = await memoryFixture({}, store);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await fixture.service.remember({ content: `deploy note ${i}`, scope })).id);
  }
  store.reset();
  return { ...fixture, store, ids };
}

describe("recall access updates in the store", () => {
  it("reads and writes the access metadata of all returned memories in one call each", async () => {
    const { service, store, ids } = await fixtureWith(30);
    const result = await service.recall({ message: "deploy note" });
    expect(result.memory_count).toBe(30);
    await service.flushAccessUpdates();
    expect(store.named("get")).toHaveLength(1);
    expect(store.named("updateMetadata")).toHaveLength(1);
    expect((store.named("updateMetadata")[0] as string[]).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await service.get(id)).access_count).toBe(1);
  });

  it("merges the accesses of recalls that arrive during a write into the next write", async () => {
    const { service, store, ids } = await fixtureWith(5);
    await Promise.all(Array.from({ length: 12 }, () => service.recall({ message: "deploy" })));
    await service.flushAccessUpdates();
    // The first recall writes alone; the other eleven queue behind it and share one write.
    expect(store.named("updateMetadata")).toHaveLength(2);
    for (const id of ids) expect((await service.get(id)).access_count).toBe(12);
  });

  it("reports one warning for a failed batch of several memories and still answers", async () => {
    class FailingUpdates extends RecordingStore {
      override async updateMetadata(): Promise<void> {
        throw new AgentServicesError("store_unavailable", "vector store unavailable");
      }
    }
    const store = new FailingUpdates();
    const { service, warnings } = await memoryFixture({}, store);
    for (const content of ["deploy a", "deploy b", "deploy c"]) {
      await service.remember({ content });
    }
    expect((await service.recall({ message: "deploy" })).memory_count).toBe(3);
    await service.flushAccessUpdates();
    expect(warnings.map((w) => w.message)).toEqual([
      "failed to update access metadata of 3 memories",
    ]);
  });

  it("skips a memory deleted between the query and the access write, without a warning", async () => {
    const { service, store, warnings, ids } = await fixtureWith(2);
    const [gone, kept] = ids;
    const query = store.query.bind(store);
    store.query = async (q) => {
      const hits = await query(q);
      await store.delete([gone ?? ""]);
      return hits;
    };
    expect((await service.recall({ message: "deploy note" })).memory_count).toBe(2);
    await service.flushAccessUpdates();
    expect(store.named("updateMetadata")).toEqual([[kept]]);
    expect(warnings).toEqual([]);
    expect(await store.count()).toBe(1);
  });
});

describe("candidate queries in the store", () => {
  it("queries without any filter and over-fetches a margin, a wider one with a small project topK", async () => {
    const { service, store } = await fixtureWith(3);
    await service.search({ message: "deploy", limit: 10 });
    await service.recall({ message: "deploy" });
    await service.search({ message: "deploy", project: "billing", limit: 20 });
    // 50 candidates would need a 400-hit unfiltered page, dearer than the filtered query.
    await service.recall({ message: "deploy", project: "billing" });
    expect(store.named("query")).toEqual([
      { topK: 18, filter: undefined },
      { topK: 63, filter: undefined },
      { topK: 20 * PROJECT_OVERFETCH_FACTOR, filter: undefined },
      { topK: 63, filter: projectFilter("billing") },
    ]);
  });

  it("drops expired hits in process without a second query while enough live ones remain", async () => {
    const { service, store, clock } = await fixtureWith(0);
    await service.remember({ content: "deploy soon gone", scope: "ttl", ttl_seconds: 60 });
    await service.remember({ content: "deploy stays", scope: "permanent" });
    clock.set(T0_MS + 60_000);
    store.reset();
    const { results } = await service.search({ message: "deploy" });
    expect(results.map((r) => r.memory.content)).toEqual(["deploy stays"]);
    expect(store.named("query")).toHaveLength(1);
  });

  it("falls back to the filtered query when expired hits fill the over-fetched page", async () => {
    const { service, store, clock } = await fixtureWith(0);
    for (let i = 0; i < 12; i++) {
      await service.remember({ content: `deploy expired ${i}`, scope: "ttl", ttl_seconds: 60 });
    }
    await service.remember({ content: "unrelated live note", scope: "permanent" });
    clock.set(T0_MS + 60_000);
    store.reset();
    const { results } = await service.search({ message: "deploy expired", limit: 3 });
    expect(results.map((r) => r.memory.content)).toEqual(["unrelated live note"]);
    expect(store.named("query")).toEqual([
      { topK: 11, filter: undefined },
      { topK: 3, filter: liveFilter(T0_MS + 60_000) },
    ]);
  });
});

describe("duplicate lookup in the store", () => {
  it("filters on the content hash alone and tells type, scope and project apart in process", async () => {
    const { service, store } = await fixtureWith(0);
    const first = await service.remember({ content: "deploy on fridays", type: "rule" });
    await service.remember({ content: "deploy on fridays", type: "fact" });
    const again = await service.remember({ content: " deploy  on fridays ", type: "rule" });
    expect(again).toEqual({ id: first.id, stored: true, deduplicated: true });
    const filters = store.named("find");
    expect(filters).toHaveLength(3);
    expect(filters[0]).toEqual({ field: "content_hash", op: "eq", value: expect.any(String) });
    expect(await store.count()).toBe(2);
  });
});
