import type { ChangeFeed, OwnCommit, StoreChange } from "../ports/replication.js";
import { tenantOf } from "./tenant-metadata.js";

/**
 * One tenant's view of the shared store's change feed (replicas on PostgreSQL, issue 23). Every
 * change keeps its seq, so the tenant's `ChangeFollower` sees the same gapless sequence as the
 * store and never takes another tenant's change for a gap; a change of another tenant's record
 * comes as a deletion of its id, which is a no-op for an engine that never held it (ids are
 * UUIDs, and a record never changes tenant). A deletion carries no tenant: every tenant's
 * follower removes the id, and only the one holding it changes.
 *
 * @example
 * const feed = tenantChangeFeed(postgres.feed, "acme", listeners);
 */
export function tenantChangeFeed(
  inner: ChangeFeed,
  tenant: string,
  listeners: SharedListen,
): ChangeFeed {
  return {
    head: () => inner.head(),
    async changesSince(after: number, limit: number): Promise<StoreChange[]> {
      const changes = await inner.changesSince(after, limit);
      return changes.map((change) => {
        const of = change.record === undefined ? tenant : tenantOf(change.record.metadata);
        if (of === tenant) return change;
        listeners.seen.add(of);
        return { seq: change.seq, id: change.id, record: undefined };
      });
    },
    listen: (onCommit, onConnection) => listeners.listen(onCommit, onConnection),
    ...(inner.stamp === undefined
      ? {}
      : { stamp: (seq: number) => inner.stamp?.(seq) ?? Promise.resolve(undefined) }),
  };
}

type Listen = ChangeFeed["listen"];

interface Callbacks {
  readonly onCommit: (head: number, own?: OwnCommit) => void;
  readonly onConnection?: ((up: boolean, error?: unknown) => void) | undefined;
}

/** One listener on the shared feed, fanned out to every tenant's follower. */
export interface SharedListen {
  readonly listen: Listen;
  /** The tenants whose records the views read for other tenants (a replica's unstarted ones). */
  readonly seen: Set<string>;
}

/**
 * Shares one `listen` of `inner` among every tenant's follower (the PostgreSQL feed holds a
 * connection per listener): the first call starts it, each call gets its own stop function, and
 * the last stop stops it.
 *
 * @example
 * const listeners = sharedListen(postgres.feed);
 * tenantChangeFeed(postgres.feed, "acme", listeners);
 */
export function sharedListen(inner: ChangeFeed): SharedListen {
  const callbacks = new Set<Callbacks>();
  let started: Promise<() => Promise<void>> | undefined;
  return {
    seen: new Set(),
    async listen(onCommit, onConnection) {
      const entry: Callbacks = { onCommit, onConnection };
      callbacks.add(entry);
      started ??= inner.listen(
        (head, own) => {
          for (const c of [...callbacks]) c.onCommit(head, own);
        },
        (up, error) => {
          for (const c of [...callbacks]) c.onConnection?.(up, error);
        },
      );
      try {
        await started;
      } catch (error) {
        callbacks.delete(entry);
        started = undefined;
        throw error;
      }
      return async () => {
        if (!callbacks.delete(entry) || callbacks.size > 0) return;
        const stop = started;
        started = undefined;
        await (
          await stop
        )?.();
      };
    },
  };
}
