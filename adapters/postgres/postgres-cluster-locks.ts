import type pg from "pg";
import type { ClusterLocks, HeldLocks } from "../../core/ports/replication.js";
import { postgresError } from "./postgres-errors.js";
import { AdvisoryLockGroups } from "./postgres-lock-groups.js";
import { advisoryKey } from "./postgres-keys.js";
import type { PostgresStoreContext } from "./postgres-vector-store.js";

/** What the locks need: a pool of their own and the store's query. */
export interface PostgresLocksContext extends Pick<PostgresStoreContext, "query" | "checkOpen"> {
  /** The pool whose connections hold the locks while tasks run (`lockPoolSize`). */
  readonly lockPool: pg.Pool;
  readonly target: string;
  /**
   * This process's write commit in flight, if any (see `PostgresVectorStore.commitInFlight`): a
   * task whose head was read while it was unanswered starts once it settled.
   */
  readonly ownCommitInFlight?: () => Promise<void> | undefined;
}

const CLAIM_TURN = `
  INSERT INTO memsvc_leases AS l (name, last_run) VALUES ($1, now())
  ON CONFLICT (name) DO UPDATE SET last_run = now()
  WHERE l.last_run <= now() - $2::bigint * interval '1 millisecond'
  RETURNING name`;

/**
 * The {@link ClusterLocks} of the PostgreSQL store.
 *
 * `runAll` takes one session-level advisory lock per key (`pg_advisory_lock` on a 64-bit hash of
 * the key) on a connection of its own pool (`lockPoolSize`, so tasks holding locks never starve
 * the store's writes of connections), sorted, with the change head read once they are held, in
 * one round trip; the keys are released once `task` settles, even when it throws, by a message
 * sent behind the result (the caller waits for no round trip). Concurrent calls share their
 * acquisitions and releases ({@link AdvisoryLockGroups}): with 8 concurrent remembers, a lock
 * costs a fraction of a round trip instead of two. Sorted keys make two calls deadlock-free; a
 * nested call (inside a task) takes a second connection and can close a cycle, which PostgreSQL
 * aborts as a deadlock (40P01) after `deadlock_timeout` (1 s by default): the acquisition is
 * retried. A nested call on a key its caller holds waits forever: don't.
 *
 * `claimTurn` updates the lease row of `name` only when its last run is at least `intervalMs`
 * old by the database's clock, in one statement: exactly one caller wins each interval.
 *
 * @example
 * await postgres.locks.runAll([`remember\u0000${hash}`], () => insertUnlessDuplicate());
 * if (await postgres.locks.claimTurn("sweep-expired", 60_000)) await sweep();
 */
export class PostgresClusterLocks implements ClusterLocks {
  readonly #context: PostgresLocksContext;
  readonly #groups: AdvisoryLockGroups;

  constructor(context: PostgresLocksContext) {
    this.#context = context;
    this.#groups = new AdvisoryLockGroups({
      lockPool: context.lockPool,
      fail: (error, action) => postgresError(error, context.target, action),
    });
  }

  async runAll<T>(keys: readonly string[], task: (held: HeldLocks) => Promise<T>): Promise<T> {
    this.#context.checkOpen();
    if (keys.length === 0) return task({});
    const lease = await this.#groups.acquire([...new Set(keys.map(advisoryKey))]);
    // The head may count this process's commit in flight: once it answered, its writers hold
    // what they created, and the catch-up need not read those changes back from the feed.
    const pending = this.#context.ownCommitInFlight?.();
    if (pending !== undefined) await pending;
    // The keys are released by a message that is not awaited: the caller has its result one
    // round trip sooner, and whoever waits for a key gets it when that message arrives.
    try {
      return await task(lease.head === undefined ? {} : { head: lease.head });
    } finally {
      lease.release();
    }
  }

  async claimTurn(name: string, intervalMs: number): Promise<boolean> {
    const { rows } = await this.#context.query<{ name: string }>("claim a turn", CLAIM_TURN, [
      name,
      Math.max(0, Math.floor(intervalMs)),
    ]);
    return rows.length === 1;
  }
}
