/**
 * Replica mode of the memory service: several services on one shared store (PostgreSQL), each
 * keeping the exact in-process engine. What differs from owner mode is wired here: the engine
 * the use cases write through notes their writes, a {@link ChangeFollower} applies the store's
 * committed changes, the locks hold across the cluster and catch the engine up once held, and
 * recall's accesses are added to the stored counts instead of overwriting them.
 */
import type { ChangeFeed, ClusterLocks } from "../ports/replication.js";
import type { VectorRecord, VectorStore } from "../ports/vector-store.js";
import type { AccessUpdate } from "../storage/access-write-behind.js";
import { ChangeFollower } from "../storage/change-follower.js";
import type { FollowerEvent } from "../storage/change-follower-deps.js";
import { LocallyWrittenEngine, LocalWriteClock } from "./engine/local-writes.js";
import type { MemoryEngine } from "./engine/memory-engine.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import { decodeMemory } from "./model/memory-metadata.js";
import { accessMetadata } from "./model/metadata-updates.js";
import type { ExpiryOptions } from "./model/expiry.js";
import { KeyedLock } from "./keyed-lock.js";
import { idLockKey, type OptimisticInserts, type ServiceLocks } from "./service-context.js";

/** What {@link replicate} needs. */
export interface ReplicaDeps {
  readonly store: VectorStore;
  readonly feed: ChangeFeed;
  readonly locks: ClusterLocks;
  readonly skip: (record: VectorRecord, error: unknown) => void;
  readonly onFollowerEvent?: ((event: FollowerEvent) => void) | undefined;
  readonly followerRetryDelay?: ((attempt: number) => Promise<void>) | undefined;
}

/** A replica's parts, for the service to use in place of owner mode's. */
export interface Replica {
  /** The engine the use cases read and write through. */
  readonly engine: MemoryReadModel;
  readonly follower: ChangeFollower;
  readonly feed: ChangeFeed;
  readonly locks: ServiceLocks;
  /** Present when the store offers `insertNew`. */
  readonly optimistic: OptimisticInserts | undefined;
}

/**
 * The replica wiring around an empty engine.
 *
 * @example
 * const replica = replicate(new MemoryEngine(index, options), { store, feed, locks, skip });
 */
export function replicate(engine: MemoryEngine, deps: ReplicaDeps): Replica {
  const localWrites = new LocalWriteClock();
  const follower = new ChangeFollower({
    feed: deps.feed,
    store: deps.store,
    engine,
    localWrites,
    skip: deps.skip,
    ...(deps.onFollowerEvent === undefined ? {} : { onEvent: deps.onFollowerEvent }),
    ...(deps.followerRetryDelay === undefined ? {} : { retryDelay: deps.followerRetryDelay }),
  });
  return {
    engine: new LocallyWrittenEngine(engine, localWrites),
    follower,
    feed: deps.feed,
    locks: clusterLocks(deps.locks, follower),
    optimistic: optimisticInserts(deps.store, follower),
  };
}

/** New memories without the lock's round trip, when the store can check what the lock would. */
function optimisticInserts(
  store: VectorStore,
  follower: ChangeFollower,
): OptimisticInserts | undefined {
  const insertNew = store.insertNew?.bind(store);
  if (insertNew === undefined) return undefined;
  return { local: new KeyedLock(), seen: () => follower.applied, insertNew };
}

/**
 * The locks of a replica: a cluster lock on every key, and once it is held, the engine caught up
 * with every change committed before (so what the task reads is what the store holds for its
 * keys, whichever replica wrote it). No key, nothing to hold nor to catch up for: the task runs
 * at once (a remember that merges into no duplicate takes no id lock; it read the feed once
 * per remember before).
 */
function clusterLocks(locks: ClusterLocks, follower: ChangeFollower): ServiceLocks {
  const runAll = <T>(keys: readonly string[], task: () => Promise<T>): Promise<T> =>
    keys.length === 0
      ? task()
      : locks.runAll(keys, async (held) => {
          await follower.catchUp(held.head);
          return task();
        });
  return { runAll, run: (key, task) => runAll([key], task) };
}

/**
 * Adds recall's accesses to what the shared store holds (other replicas count too), under the
 * memories' cluster locks: read, add, write. The feed then brings the sums to every engine.
 *
 * @example
 * new AccessWriteBehind({ current, write: (u) => addAccesses({ store, engine, locks, options }, u) });
 */
export async function addAccesses(
  parts: {
    readonly store: VectorStore;
    readonly engine: MemoryReadModel;
    readonly locks: ServiceLocks;
    readonly options: ExpiryOptions;
  },
  updates: readonly AccessUpdate[],
): Promise<void> {
  const { store, engine, locks, options } = parts;
  const ids = updates.map((u) => u.id);
  await locks.runAll(ids.map(idLockKey), async () => {
    const stored = new Map((await store.get(ids)).map((r) => [r.id, r]));
    const writes = updates.flatMap(({ id, accesses }) => {
      const record = stored.get(id);
      const held = engine.peek(id);
      if (record === undefined || held === undefined) return [];
      const current = decodeMemory(record);
      const lastMs = Date.parse(held.last_accessed);
      return [{ id, metadata: accessMetadata(current, lastMs, options, accesses) }];
    });
    if (writes.length > 0) await store.updateMetadata(writes);
  });
}
