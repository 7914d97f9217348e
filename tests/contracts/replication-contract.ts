import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeFeed, ClusterLocks } from "../../core/ports/replication.js";
import type { VectorRecord, VectorStore } from "../../core/ports/vector-store.js";

/** What a run needs: a fresh, empty, bound store with its feed and locks. */
export interface ReplicationUnderTest {
  store: VectorStore;
  feed: ChangeFeed;
  locks: ClusterLocks;
  cleanup(): Promise<void>;
}

function record(id: string, n: number): VectorRecord {
  return { id, vector: [1, n, 0, 0], document: `doc ${id}`, metadata: { n } };
}

/** Resolves once `check` is true (polled), rejects after `ms`. */
async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The behaviour of a store's {@link ChangeFeed} and {@link ClusterLocks}, for every store that
 * replicas share. Uses real time (claimTurn intervals of tens of milliseconds).
 *
 * @example
 * describeReplicationContract("PostgreSQL", async () => {
 *   const postgres = await connectPostgres(url);
 *   await postgres.migrate();
 *   const { store, feed, locks } = postgres;
 *   return { store, feed, locks, cleanup: () => postgres.close() };
 * });
 */
export function describeReplicationContract(
  name: string,
  make: () => Promise<ReplicationUnderTest>,
): void {
  describe(`ChangeFeed and ClusterLocks contract: ${name}`, () => {
    let subject: ReplicationUnderTest;
    beforeEach(async () => {
      subject = await make();
      await subject.store.bind({ embedderId: "contract-embedder", dimensions: 4 });
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    it("numbers committed changes 1, 2, 3 … and reads each with the record as stored now", async () => {
      const { store, feed } = subject;
      expect(await feed.head()).toBe(0);
      expect(await feed.changesSince(0, 10)).toEqual([]);
      await store.upsert([record("a", 1), record("b", 2)]);
      await store.updateMetadata([{ id: "a", metadata: { n: 5 } }]);
      await store.delete(["b"]);
      const changes = await feed.changesSince(0, 10);
      expect(changes.map((c) => c.seq)).toEqual([1, 2, 3, 4]);
      expect(await feed.head()).toBe(4);
      const byId = new Map(changes.map((c) => [c.id, c.record]));
      expect(byId.get("a")).toMatchObject({ id: "a", document: "doc a", metadata: { n: 5 } });
      expect(byId.get("a")?.vector[1]).toBeCloseTo(1, 5);
      expect(byId.get("b")).toBeUndefined();
      expect(changes.map((c) => c.id).sort()).toEqual(["a", "a", "b", "b"]);
    });

    it("pages changes by sequence with a limit", async () => {
      const { store, feed } = subject;
      for (let i = 0; i < 5; i += 1) await store.upsert([record(`r${i}`, i)]);
      expect((await feed.changesSince(1, 2)).map((c) => c.seq)).toEqual([2, 3]);
      expect((await feed.changesSince(3, 10)).map((c) => c.seq)).toEqual([4, 5]);
      expect(await feed.changesSince(5, 10)).toEqual([]);
    });

    it("logs no change for a write that changes nothing", async () => {
      const { store, feed } = subject;
      await store.updateMetadata([{ id: "ghost", metadata: { n: 1 } }]);
      expect(await store.delete(["ghost"])).toBe(0);
      expect(await feed.head()).toBe(0);
    });

    it("calls a listener after a commit, and stops calling once stopped", async () => {
      const { store, feed } = subject;
      const heads: number[] = [];
      const stop = await feed.listen((head) => heads.push(head));
      await store.upsert([record("a", 1)]);
      await eventually(() => heads.includes(1));
      await stop();
      const seen = heads.length;
      await store.upsert([record("b", 2)]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heads.length).toBe(seen);
    });

    it("tells its own listener, before a write resolves, the records the commit created (issue 21)", async () => {
      const { store, feed } = subject;
      const own: { head: number; created: { seq: number; id: string }[] }[] = [];
      const stop = await feed.listen((head, commit) => {
        if (commit !== undefined) own.push({ head, created: [...commit.created] });
      });
      await store.upsert([record("a", 1), record("b", 2)]);
      expect(own).toEqual([
        {
          head: 2,
          created: expect.arrayContaining([
            { seq: expect.any(Number), id: "a" },
            { seq: expect.any(Number), id: "b" },
          ]) as unknown,
        },
      ]);
      // Each created id has the seq its change is read under.
      const seqOf = new Map((await feed.changesSince(0, 10)).map((c) => [c.id, c.seq]));
      for (const { seq, id } of own[0]?.created ?? []) expect(seq).toBe(seqOf.get(id));
      // An upsert over a stored record, an update and a delete create nothing.
      await store.upsert([record("b", 3), record("c", 4)]);
      await store.updateMetadata([{ id: "a", metadata: { n: 5 } }]);
      await store.delete(["a"]);
      const changes = await feed.changesSince(2, 10);
      const c = changes.find((change) => change.id === "c");
      expect(own.slice(1).map((o) => o.created)).toEqual([[{ seq: c?.seq, id: "c" }], [], []]);
      await stop();
    });

    it("inserts new records without a lock, logged and announced as created (issue 21)", async () => {
      const { store, feed } = subject;
      if (store.insertNew === undefined) return;
      const own: { seq: number; id: string }[][] = [];
      const stop = await feed.listen((_head, commit) => {
        if (commit !== undefined) own.push([...commit.created]);
      });
      const left = await store.insertNew([
        { record: record("a", 1), lockKey: "ka", match: { n: 1 }, seen: 0 },
        { record: record("b", 2), lockKey: "kb", match: { n: 2 }, seen: 0 },
      ]);
      expect([...left]).toEqual([]);
      const changes = await feed.changesSince(0, 10);
      expect(changes.map((c) => [c.seq, c.id, c.record?.document])).toEqual([
        [1, "a", "doc a"],
        [2, "b", "doc b"],
      ]);
      expect(own).toEqual([
        [
          { seq: 1, id: "a" },
          { seq: 2, id: "b" },
        ],
      ]);
      await stop();
    });

    it("leaves out a new record whose like changed after what its caller saw, or whose key is taken", async () => {
      const { store, feed, locks } = subject;
      if (store.insertNew === undefined) return;
      const insertNew = store.insertNew.bind(store);
      await store.upsert([record("a", 1)]); // seq 1, n 1
      const like = { lockKey: "k1", match: { n: 1 }, seen: 0 };
      // Changed after seq 0 with n = 1: a like its caller could not have seen.
      expect([...(await insertNew([{ record: record("x", 9), ...like }]))]).toEqual(["x"]);
      // Seen up to seq 1: the caller judged it already.
      expect([...(await insertNew([{ ...like, record: record("y", 9), seen: 1 }]))]).toEqual([]);
      // An earlier item of the call with the same key is stored, the later one is left out.
      const twice = await insertNew([
        { record: record("p", 7), lockKey: "k7", match: { n: 7 }, seen: 2 },
        { record: record("q", 7), lockKey: "k7", match: { n: 7 }, seen: 2 },
      ]);
      expect([...twice]).toEqual(["q"]);
      // A key a cluster lock holds is left out without waiting for it.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding: () => void = () => undefined;
      const taken = new Promise<void>((resolve) => (holding = resolve));
      const task = locks.runAll(["k8"], async () => {
        holding();
        await held;
      });
      await taken;
      const blocked = await insertNew([
        { record: record("r", 8), lockKey: "k8", match: { n: 8 }, seen: 4 },
        { record: record("s", 6), lockKey: "k6", match: { n: 6 }, seen: 4 },
      ]);
      expect([...blocked]).toEqual(["r"]);
      release();
      await task;
      const stored = (await feed.changesSince(0, 20)).map((c) => c.id);
      expect(stored).toEqual(["a", "y", "p", "s"]);
    });

    it("tells a task the head once its keys are held, if it knows it, past every earlier commit", async () => {
      const { store, feed, locks } = subject;
      await store.upsert([record("a", 1), record("b", 2)]);
      const head = await locks.runAll(["k"], async (held) => held.head);
      expect(head ?? 2).toBe(2);
      // A commit made while another task held the key is below the next holder's head.
      let holding!: () => void;
      const started = new Promise<void>((resolve) => (holding = resolve));
      const writing = locks.runAll(["k"], async () => {
        holding();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await store.upsert([record("c", 3)]);
      });
      await started;
      const next = await locks.runAll(["k"], async (held) => held.head);
      await writing;
      expect(next ?? 3).toBe(3);
      expect(await feed.head()).toBe(3);
    });

    it("runs tasks on one key one at a time and returns their results", async () => {
      const { locks } = subject;
      let inside = 0;
      let most = 0;
      const task = async (i: number) => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inside -= 1;
        return i;
      };
      const results = await Promise.all(
        [1, 2, 3, 4].map((i) => locks.runAll(["k", `other-${i}`], () => task(i))),
      );
      expect(results).toEqual([1, 2, 3, 4]);
      expect(most).toBe(1);
    });

    it("releases the keys when a task throws", async () => {
      const { locks } = subject;
      await expect(
        locks.runAll(["k"], async () => {
          throw new Error("task failed");
        }),
      ).rejects.toThrow("task failed");
      await expect(locks.runAll(["k"], async () => "again")).resolves.toBe("again");
    });

    it("never deadlocks two calls that name the same keys in opposite orders", async () => {
      const { locks } = subject;
      const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
      const runs = Array.from({ length: 6 }, (_, i) =>
        locks.runAll(i % 2 === 0 ? ["x", "y", "z"] : ["z", "y", "x"], async () => {
          await pause();
          return i;
        }),
      );
      expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it("gives exactly one caller a turn per interval", async () => {
      const { locks } = subject;
      // A long interval where the test needs "still within it", so a slow machine cannot let it
      // pass between two calls; a short one only where it must have passed.
      const claims = await Promise.all([1, 2, 3, 4].map(() => locks.claimTurn("sweep", 10_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await locks.claimTurn("sweep", 10_000)).toBe(false);
      expect(await locks.claimTurn("another", 10_000)).toBe(true);
      expect(await locks.claimTurn("tick", 10_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const later = await Promise.all([1, 2, 3].map(() => locks.claimTurn("tick", 350)));
      expect(later.filter(Boolean)).toHaveLength(1);
    });
  });
}
