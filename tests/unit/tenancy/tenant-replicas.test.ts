import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../core/errors.js";
import { MemoryService } from "../../../core/memory/index.js";
import type { FollowerEvent } from "../../../core/storage/change-follower-deps.js";
import { TenantSpace } from "../../../core/tenancy/index.js";
import { FakeEmbedder, InMemorySharedStore, ManualClock } from "../../../core/testing/index.js";
import { T0 } from "./tenant-fixture.js";

/** A replica's tenant space on the shared store (what `memsvc` builds on PostgreSQL). */
async function replica(shared: InMemorySharedStore, events: FollowerEvent[]) {
  const { store, feed, locks } = shared.replica();
  const embedder = new FakeEmbedder({ dimensions: 8 });
  const clock = new ManualClock(T0);
  const tenants = new TenantSpace({
    store,
    feed,
    space: { embedderId: embedder.id, dimensions: embedder.dimensions },
    create: (parts) =>
      new MemoryService({
        store: parts.store,
        embedder,
        clock,
        ...(parts.feed === undefined ? {} : { feed: parts.feed, locks }),
        onFollowerEvent: (event) => events.push(event),
        idsTakenElsewhere: parts.idsTakenElsewhere,
      }),
    newId: () => globalThis.crypto.randomUUID(),
  });
  await tenants.init();
  return tenants;
}

describe("tenants on replicas of one shared store (issues 21 and 23)", () => {
  it("brings each tenant's writes to the same tenant on the other replicas, and nowhere else", async () => {
    const shared = new InMemorySharedStore();
    const events: FollowerEvent[] = [];
    const a = await replica(shared, events);
    const b = await replica(shared, events);
    // Both replicas know both tenants before the writes: each follower sees every change.
    const [acmeOnB, globexOnB] = [await b.service("acme"), await b.service("globex")];
    const acme = await (await a.service("acme")).remember({ content: "Deploys on Fridays" });
    const globex = await (await a.service("globex")).remember({ content: "Deploys on Fridays" });
    await acmeOnB.follower?.catchUp();
    await globexOnB.follower?.catchUp();
    expect((await acmeOnB.get(acme.id)).content).toBe("Deploys on Fridays");
    const foreign = await acmeOnB.get(globex.id).catch((e: unknown) => e);
    expect(isAgentServicesError(foreign, "not_found")).toBe(true);
    expect((await globexOnB.stats()).total_memories).toBe(1);
    // Every follower advanced over the other tenant's changes without taking them for a gap.
    expect(acmeOnB.follower?.applied).toBe(shared.head);
    expect(globexOnB.follower?.applied).toBe(shared.head);
    expect(events.filter((e) => e.kind === "resync")).toEqual([]);
  });

  it("loads a tenant first used after startup from the shared store on a replica", async () => {
    const shared = new InMemorySharedStore();
    const a = await replica(shared, []);
    const b = await replica(shared, []);
    const { id } = await (await a.service("late")).remember({ content: "written on a" });
    expect(b.tenants).not.toContain("late");
    expect((await (await b.service("late")).get(id)).content).toBe("written on a");
  });

  it("counts a tenant another replica wrote after startup, though this one never served it", async () => {
    // QA of issue 23: GET /v1/tenants (and the tenant metrics) on a replica listed only the
    // tenants it had served, so the memory browser's picker missed the others' new tenants.
    const shared = new InMemorySharedStore();
    const a = await replica(shared, []);
    const b = await replica(shared, []);
    await (await a.service("late")).remember({ content: "written on a" });
    await (await b.service("default")).follower?.catchUp();
    expect(await b.counts()).toEqual([{ tenant: "late", memories: 1 }]);
  });

  it("gives an import line a new id when a tenant this replica never started holds it", async () => {
    // QA of issue 23: replica b had never served "bravo", so no engine of b held the id and
    // alpha's import overwrote bravo's memory in the shared store (and moved it to alpha).
    const shared = new InMemorySharedStore();
    const a = await replica(shared, []);
    const b = await replica(shared, []);
    const { id } = await (await a.service("bravo")).remember({ content: "bravo's plan" });
    const line = JSON.stringify({ id, content: "alpha was here", scope: "permanent" });
    const alphaOnB = await b.service("alpha");
    const result = await alphaOnB.importMemories([{ line: 1, text: line }]);
    expect(result).toEqual({ imported: 1, deduplicated: 0, rejected: [] });
    expect(b.tenants).not.toContain("bravo");
    const c = await replica(shared, []);
    expect((await (await c.service("bravo")).get(id)).content).toBe("bravo's plan");
    const alphaOnC = (await (await c.service("alpha")).list()).memories;
    expect(alphaOnC.map((m) => m.content)).toEqual(["alpha was here"]);
    expect(alphaOnC[0]?.id).not.toBe(id);
  });
});
