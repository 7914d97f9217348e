import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryService } from "../../../core/memory/index.js";
import type { ChangeFeed } from "../../../core/ports/index.js";
import type { FollowerEvent } from "../../../core/storage/change-follower-deps.js";
import {
  FakeEmbedder,
  InMemorySharedStore,
  ManualClock,
  type InMemoryReplicaPorts,
} from "../../../core/testing/index.js";
import { T0 } from "./memory-fixture.js";

/**
 * Replica mode over the in-memory shared store: each service keeps its own engine, fed by the
 * store's change feed, and takes cluster locks for duplicate merging and read-modify-write.
 */
async function replicas(
  count: number,
  shared = new InMemorySharedStore(),
  ports: (replica: InMemoryReplicaPorts) => InMemoryReplicaPorts = (replica) => replica,
) {
  const clock = new ManualClock(T0);
  const events: FollowerEvent[] = [];
  const make = async () => {
    const service = new MemoryService({
      ...ports(shared.replica()),
      embedder: new FakeEmbedder({ dimensions: 8 }),
      clock,
      onFollowerEvent: (event) => events.push(event),
    });
    await service.init();
    return service;
  };
  const services: MemoryService[] = [];
  for (let i = 0; i < count; i += 1) services.push(await make());
  return { shared, clock, services, make, events };
}

/** What a client can observe of a service: every live memory, by id. */
async function observable(service: MemoryService) {
  const memories = [];
  for await (const memory of service.exportMemories()) memories.push(memory);
  return memories.sort((a, b) => a.id.localeCompare(b.id));
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A replica's ports whose feed announces commits a turn later, as PostgreSQL's NOTIFY comes after
 * the answer to the write (the writer's own announcement still comes before its write resolves),
 * and notes the ids of the records the follower reads from the feed and how often it reads.
 */
function lateNotifications(read: string[] = [], calls = { reads: 0 }) {
  return (replica: InMemoryReplicaPorts): InMemoryReplicaPorts => {
    const feed: ChangeFeed = {
      head: () => replica.feed.head(),
      changesSince: async (after, limit) => {
        calls.reads += 1;
        const changes = await replica.feed.changesSince(after, limit);
        for (const change of changes) if (change.record !== undefined) read.push(change.id);
        return changes;
      },
      listen: (onCommit, onConnection) =>
        replica.feed.listen(
          (head, own) =>
            own === undefined ? setImmediate(() => onCommit(head)) : onCommit(head, own),
          onConnection,
        ),
    };
    return { ...replica, feed };
  };
}

describe("MemoryService replicas on one shared store", () => {
  it("a write on one replica is found by search, recall and get on the others", async () => {
    const { services } = await replicas(3);
    const [a, b, c] = services as [MemoryService, MemoryService, MemoryService];
    const { id } = await a.remember({ content: "Deploys run on Fridays", type: "rule" });
    await settle();
    expect((await b.get(id)).content).toBe("Deploys run on Fridays");
    const found = await c.search({ message: "when do deploys run" });
    expect(found.results.map((r) => r.memory.id)).toContain(id);
    const recalled = await b.recall({ message: "deploys" });
    expect(recalled.context).toContain("Deploys run on Fridays");
  });

  it("deletes and PATCHes propagate", async () => {
    const { services } = await replicas(2);
    const [a, b] = services as [MemoryService, MemoryService];
    const { id } = await a.remember({ content: "Use tabs", type: "preference", tags: ["x"] });
    const other = await a.remember({ content: "Use spaces", type: "preference" });
    await b.follower?.catchUp();
    await b.update(id, { tags: ["style"], confidence: 0.4 });
    await a.follower?.catchUp();
    expect(await a.get(id)).toMatchObject({ tags: ["style"], confidence: 0.4 });
    await a.delete(other.id);
    await b.follower?.catchUp();
    await expect(b.get(other.id)).rejects.toThrow(/not found/);
  });

  it("the same content stored at once on three replicas keeps one memory", async () => {
    const { services, shared } = await replicas(3);
    const results = await Promise.all(
      services.map((s, i) =>
        s.remember({ content: "The build uses pnpm", type: "fact", tags: [`r${i}`] }),
      ),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.deduplicated === true)).toHaveLength(2);
    expect(shared.size).toBe(1);
    for (const service of services) await service.follower?.catchUp();
    const [memory] = await observable(services[0] as MemoryService);
    expect(new Set(memory?.tags)).toEqual(new Set(["r0", "r1", "r2"]));
  });

  it("the same content twice in one call, and at once on one replica, keeps one memory", async () => {
    const { services, shared } = await replicas(2);
    const [a, b] = services as [MemoryService, MemoryService];
    const batch = await a.rememberBatch({
      memories: [
        { content: "Lint runs in CI", type: "rule" },
        { content: "Lint runs in CI", type: "rule", tags: ["ci"] },
      ],
    });
    const [first, second] = batch.memories;
    expect(second).toEqual({ id: first?.id, stored: true, deduplicated: true });
    const together = await Promise.all([
      b.remember({ content: "Docs live in docs/", type: "fact" }),
      b.remember({ content: "Docs live in docs/", type: "fact" }),
    ]);
    expect(together[1]).toEqual({ id: together[0].id, stored: true, deduplicated: true });
    expect(shared.size).toBe(2);
  });

  it("a replica behind the changes the feed keeps reloads the store and says so", async () => {
    const { services, shared, events } = await replicas(2);
    const [a, b] = services as [MemoryService, MemoryService];
    await b.follower?.stop();
    const kept = await a.remember({ content: "kept", type: "fact" });
    const gone = await a.remember({ content: "gone", type: "fact" });
    await a.delete(gone.id);
    shared.forgetChangesBefore(shared.head);
    await b.follower?.catchUp();
    expect((await observable(b)).map((m) => m.id)).toEqual([kept.id]);
    expect(events.some((e) => e.kind === "resync")).toBe(true);
  });

  it("reloads when the store comes back behind it (restored to an earlier point)", async () => {
    const shared = new InMemorySharedStore();
    const { services, events } = await replicas(1, shared);
    const [a] = services as [MemoryService];
    await a.remember({ content: "written after the backup", type: "fact" });
    await a.follower?.catchUp();
    shared.failWith(new Error("restarting"));
    shared.restoreTo(0);
    shared.failWith(undefined);
    await settle();
    await settle();
    await a.follower?.catchUp();
    expect(await observable(a)).toEqual([]);
    expect(events.some((e) => e.kind === "resync")).toBe(true);
  });

  it("follows again after the store comes back, without losing a change", async () => {
    const { services, shared } = await replicas(2);
    const [a, b] = services as [MemoryService, MemoryService];
    shared.failWith(new Error("connection reset"));
    await settle();
    expect(b.follower?.healthy).toBe(false);
    await expect(a.remember({ content: "refused", type: "fact" })).rejects.toThrow(/unavailable/);
    shared.failWith(undefined);
    const { id } = await a.remember({ content: "after the outage", type: "fact" });
    await settle();
    await settle();
    expect(b.follower?.healthy).toBe(true);
    expect((await b.get(id)).content).toBe("after the outage");
  });

  it("access counts of recalls on several replicas add up in the store", async () => {
    const { services } = await replicas(3);
    const { id } = await (services[0] as MemoryService).remember({
      content: "The staging database is pg-staging-2",
      type: "fact",
      scope: "permanent",
    });
    for (const service of services) await service.follower?.catchUp();
    for (const service of services) {
      await service.recall({ message: "staging database" });
      await service.recall({ message: "staging database" });
    }
    for (const service of services) await service.flushAccessUpdates();
    for (const service of services) {
      await service.follower?.catchUp();
      expect((await service.get(id)).access_count).toBe(6);
    }
  });

  it("sweeps claim one turn per interval across the cluster", async () => {
    const { shared } = await replicas(0);
    const [x, y] = [shared.replica(), shared.replica()];
    expect(await x.locks.claimTurn("sweep", 60_000)).toBe(true);
    expect(await y.locks.claimTurn("sweep", 60_000)).toBe(false);
  });

  it("a replica does not read back from the feed the memories it created itself (issue 21)", async () => {
    const read: string[] = [];
    const { services } = await replicas(2, new InMemorySharedStore(), lateNotifications(read));
    const [a, b] = services as [MemoryService, MemoryService];
    const own: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      own.push((await a.remember({ content: `fact ${i}`, type: "fact" })).id);
    }
    const batch = await a.rememberBatch({ memories: [{ content: "x" }, { content: "y" }] });
    own.push(...batch.memories.map((m) => m.id));
    // Caught up first: a replica behind reads its own new write in the page of changes before it.
    await b.follower?.catchUp();
    const other = await b.remember({ content: "from b", type: "fact" });
    await settle();
    await a.follower?.catchUp();
    await b.follower?.catchUp();
    expect((await a.get(other.id)).content).toBe("from b");
    expect((await b.get(own[0] as string)).content).toBe("fact 0");
    // b read a's memories and a read b's, but neither read its own back.
    expect(read.filter((id) => own.includes(id)).length).toBe(own.length);
    expect(read.filter((id) => id === other.id).length).toBe(1);
    expect(a.follower?.applied).toBe(b.follower?.applied);
  });

  it("a replica alone reads nothing from the feed to remember (issue 21)", async () => {
    const calls = { reads: 0 };
    const shared = new InMemorySharedStore();
    const { services } = await replicas(1, shared, lateNotifications([], calls));
    const a = services[0] as MemoryService;
    const before = calls.reads;
    for (let i = 0; i < 5; i += 1) await a.remember({ content: `fact ${i}`, type: "fact" });
    await a.rememberBatch({ memories: [{ content: "x" }, { content: "y" }] });
    await settle();
    // The locks tell the head: nothing new but its own memories, so nothing to read.
    expect(calls.reads).toBe(before);
    // New content is stored without the lock, so a remember reads nothing either...
    const b = new MemoryService({
      ...shared.replica(),
      embedder: new FakeEmbedder({ dimensions: 8 }),
      clock: new ManualClock(T0),
    });
    await b.init();
    const other = await b.remember({ content: "from b", type: "fact" });
    await a.remember({ content: "fact 6", type: "fact" });
    expect(calls.reads).toBe(before);
    // ...until the store finds another replica's like of it: then the lock reads it and merges.
    const again = await a.remember({ content: "from b", type: "fact" });
    expect(again).toEqual({ id: other.id, stored: true, deduplicated: true });
    expect(calls.reads).toBeGreaterThan(before);
    expect((await a.get(other.id)).content).toBe("from b");
  });

  it.each([
    ["announced at once", undefined],
    ["announced a turn later, as by PostgreSQL", lateNotifications()],
  ])(
    "every replica equals a fresh load after random writes, deletes, patches and restarts (%s)",
    async (_name, ports) => {
      type Op =
        | { kind: "remember"; replica: number; content: number }
        | { kind: "delete"; replica: number; pick: number }
        | { kind: "patch"; replica: number; pick: number; confidence: number }
        | { kind: "restart"; replica: number };
      const op = fc.oneof(
        fc.record({
          kind: fc.constant("remember" as const),
          replica: fc.nat(2),
          content: fc.nat(6),
        }),
        fc.record({ kind: fc.constant("delete" as const), replica: fc.nat(2), pick: fc.nat(20) }),
        fc.record({
          kind: fc.constant("patch" as const),
          replica: fc.nat(2),
          pick: fc.nat(20),
          confidence: fc.integer({ min: 1, max: 10 }),
        }),
        fc.record({ kind: fc.constant("restart" as const), replica: fc.nat(2) }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
          async (rounds) => {
            const cluster = await replicas(3, new InMemorySharedStore(), ports);
            const services = cluster.services;
            const ids: string[] = [];
            for (const round of rounds) {
              // The ops of a round run concurrently, on their replicas.
              await Promise.all(
                round.map(async (o: Op) => {
                  const service = services[o.replica] as MemoryService;
                  if (o.kind === "remember") {
                    const { id } = await service.remember({
                      content: `fact number ${o.content}`,
                      type: "fact",
                    });
                    ids.push(id);
                  } else if (o.kind === "delete" && ids.length > 0) {
                    await service.delete(ids[o.pick % ids.length] as string).catch(() => undefined);
                  } else if (o.kind === "patch" && ids.length > 0) {
                    await service
                      .update(ids[o.pick % ids.length] as string, { confidence: o.confidence / 10 })
                      .catch(() => undefined);
                  } else if (o.kind === "restart") {
                    await service.follower?.stop();
                    services[o.replica] = await cluster.make();
                  }
                }),
              );
            }
            const fresh = await cluster.make();
            const expected = await observable(fresh);
            expect(new Set(expected.map((m) => m.content)).size).toBe(expected.length);
            for (const service of services) {
              await service.follower?.catchUp();
              expect(await observable(service)).toEqual(expected);
            }
          },
        ),
        { numRuns: 60 },
      );
    },
  );
});
