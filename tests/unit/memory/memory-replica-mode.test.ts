import { describe, expect, it } from "vitest";
import { MemoryService } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";
import { HOUR, T0 } from "./memory-fixture.js";

/** Two services in replica mode on one store, as two stateless replicas on one collection. */
async function replicas() {
  const store = new InMemoryVectorStore();
  const clock = new ManualClock(T0);
  const warnings: string[] = [];
  const make = async () => {
    const service = new MemoryService({
      store,
      embedder: new FakeEmbedder({ dimensions: 8 }),
      clock,
      replicaQuery: store,
      options: { onWarning: (message) => warnings.push(message) },
    });
    expect(await service.init()).toBe(0);
    return service;
  };
  return { a: await make(), b: await make(), store, clock, warnings };
}

describe("MemoryService in replica mode (reads query the store)", () => {
  it("sees another replica's writes at once: get, search, recall and stats", async () => {
    const { a, b } = await replicas();
    const { id } = await a.remember({
      content: "Deploys run on Fridays",
      type: "rule",
      scope: "permanent",
    });
    await a.remember({ content: "Billing owns invoices", project: "billing", scope: "project" });
    expect((await b.get(id)).content).toBe("Deploys run on Fridays");
    const found = await b.search({ message: "Deploys run on Fridays", limit: 1 });
    expect(found.results.map((r) => r.memory.id)).toEqual([id]);
    expect(found.results[0]?.score).toBeCloseTo(1, 5);
    const recalled = await b.recall({ message: "Deploys run on Fridays", project: "search" });
    expect(recalled.context).toContain("[rule] Deploys run on Fridays");
    expect(recalled.context).not.toContain("Billing");
    expect(await b.stats()).toMatchObject({
      total_memories: 2,
      by_type: { rule: 1, fact: 1 },
      by_scope: { permanent: 1, project: 1, session: 0, ttl: 0 },
    });
  });

  it("merges a duplicate written through another replica, and deletes across replicas", async () => {
    const { a, b } = await replicas();
    const first = await a.remember({ content: "Use pnpm", tags: ["tooling"] });
    const again = await b.remember({ content: "Use  pnpm ", tags: ["js"] });
    expect(again).toEqual({ id: first.id, stored: true, deduplicated: true });
    expect((await a.get(first.id)).tags).toEqual(["tooling", "js"]);
    await b.delete(first.id);
    await expect(a.get(first.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("writes recall's accesses to the store, and sweeps expired memories found there", async () => {
    const { a, b, clock } = await replicas();
    const { id } = await a.remember({ content: "Session note about deploys", scope: "session" });
    await b.recall({ message: "Session note about deploys" });
    await b.flushAccessUpdates();
    expect((await a.get(id)).access_count).toBe(1);
    const gone = await a.remember({ content: "Short lived", scope: "ttl", ttl_seconds: 60 });
    clock.advance(2 * 60_000);
    expect(await b.sweepExpired()).toBe(1);
    await expect(a.get(gone.id)).rejects.toMatchObject({ code: "not_found" });
    clock.advance(25 * HOUR);
    expect((await b.stats()).total_memories).toBe(0);
  });
  it("lists, updates and deletes by filter what another replica wrote (full store reads)", async () => {
    const { a, b } = await replicas();
    const rule = await a.remember({ content: "Deploys run on Fridays", type: "rule" });
    await a.remember({ content: "Billing owns invoices", project: "billing", scope: "project" });
    const page = await b.list({ project: "billing" });
    expect(page.memories.map((m) => m.content)).toEqual(["Billing owns invoices"]);
    expect(page.next_cursor).toBeNull();
    const updated = await b.update(rule.id, { content: "Deploys run on Thursdays" });
    expect(updated).toMatchObject({ id: rule.id, content: "Deploys run on Thursdays" });
    expect((await a.get(rule.id)).content).toBe("Deploys run on Thursdays");
    expect(await a.deleteMatching({ project: "billing", dry_run: true })).toEqual({
      deleted: 0,
      matched: 1,
    });
    expect(await a.deleteMatching({ project: "billing" })).toEqual({ deleted: 1 });
    expect((await b.list({})).memories.map((m) => m.id)).toEqual([rule.id]);
  });
});
