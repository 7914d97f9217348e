import type pg from "pg";
import { errorCode } from "./postgres-errors.js";

/** What a caller holds once its keys are locked: the head read then, and how to let go. */
export interface LockLease {
  /** The change head read once every key was held (undefined when it could not be read). */
  readonly head: number | undefined;
  /** Releases the caller's keys (batched with the group's other releases of the same turn). */
  release(): void;
}

/** What the groups need from the store: the lock pool, and how to report a failure. */
export interface LockGroupsOptions {
  readonly lockPool: pg.Pool;
  /** Turns a driver error into the store's coded error. */
  readonly fail: (error: unknown, action: string) => unknown;
  /** How long a group of several callers waits for a key before it splits. Default 50 ms. */
  readonly groupLockTimeoutMs?: number;
  /** How long the queue waits for the acquisition in flight before starting another. Default 3 ms. */
  readonly overtakeMs?: number;
}

interface Waiter {
  readonly keys: readonly string[];
  resolve(lease: LockLease): void;
  reject(error: unknown): void;
}

/** How many times an acquisition aborted as a deadlock is tried again. */
const DEADLOCK_RETRIES = 20;
/** Most callers one acquisition takes. */
const MAX_GROUP = 64;

/**
 * Session-level advisory locks, acquired for many callers in one round trip.
 *
 * Callers that arrive while an acquisition is in flight queue; the next acquisition takes every
 * queued caller whose keys are disjoint from the others' (an advisory lock is re-entrant within
 * a session, so two callers with a common key never share one) and locks the union of their
 * keys, sorted, on one connection, with the change head read after them, in one message. Each
 * caller's keys are released as soon as its own task settles (`pg_advisory_unlock`, the
 * releases of one turn in one message, not awaited): a caller never holds a key longer because
 * it shared an acquisition, so the groups add no lock ordering that callers did not have alone.
 * An acquisition in progress holds the keys it got while it waits for the next: for a group of
 * several callers that wait is bounded (`lock_timeout`), after which it lets go of everything
 * and each caller acquires alone, as without groups (no timeout then). The connection returns
 * to the pool once every caller released (`pg_advisory_unlock_all`); a connection that failed
 * is closed, which releases its locks on the server.
 *
 * @example
 * const lease = await groups.acquire(["123", "456"]);
 * try { await task(lease.head); } finally { lease.release(); }
 */
export class AdvisoryLockGroups {
  readonly #options: LockGroupsOptions;
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #overtake: NodeJS.Timeout | undefined;
  /** An acquisition starts at the end of this turn. */
  #starting = false;

  constructor(options: LockGroupsOptions) {
    this.#options = options;
  }

  /** Locks `keys` (decimal 64-bit integers, unique); resolves once all are held. */
  acquire(keys: readonly string[]): Promise<LockLease> {
    for (const key of keys) {
      if (!/^-?\d{1,20}$/.test(key)) throw new Error(`advisory key is not an integer: ${key}`);
    }
    return new Promise<LockLease>((resolve, reject) => {
      this.#queue.push({ keys, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#queue.length === 0 || this.#starting) return;
    if (this.#inFlight === 0) {
      // The callers of this turn of the event loop (requests read together) share it.
      this.#starting = true;
      setImmediate(() => {
        this.#starting = false;
        if (this.#queue.length > 0) void this.#acquireGroup(this.#take());
      });
      return;
    }
    // An acquisition may wait for a key held elsewhere: do not let the queue wait behind it long.
    this.#overtake ??= setTimeout(() => {
      this.#overtake = undefined;
      if (this.#queue.length > 0) void this.#acquireGroup(this.#take());
    }, this.#options.overtakeMs ?? 3);
    this.#overtake.unref();
  }

  /** The queued callers that can share one acquisition, in arrival order. */
  #take(): Waiter[] {
    const taken: Waiter[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.#queue.length && taken.length < MAX_GROUP;) {
      const waiter = this.#queue[i] as Waiter;
      if (waiter.keys.some((key) => keys.has(key))) {
        i += 1;
        continue;
      }
      for (const key of waiter.keys) keys.add(key);
      taken.push(waiter);
      this.#queue.splice(i, 1);
    }
    return taken;
  }

  async #acquireGroup(group: Waiter[]): Promise<void> {
    this.#inFlight += 1;
    try {
      await this.#lock(group, group.length > 1);
    } finally {
      this.#inFlight -= 1;
      if (this.#inFlight === 0 && this.#overtake !== undefined) {
        clearTimeout(this.#overtake);
        this.#overtake = undefined;
      }
      this.#pump();
    }
  }

  /** Locks the group's keys on one connection and hands each caller its lease. */
  async #lock(group: readonly Waiter[], bounded: boolean): Promise<void> {
    const keys = sortedKeys(group.flatMap((w) => w.keys));
    for (let attempt = 0; ; attempt += 1) {
      let client: pg.PoolClient;
      try {
        client = await this.#options.lockPool.connect();
      } catch (error) {
        for (const waiter of group)
          waiter.reject(this.#options.fail(error, "take a lock connection"));
        return;
      }
      let head: number | undefined;
      try {
        head = await lockKeys(client, keys, bounded ? (this.#options.groupLockTimeoutMs ?? 50) : 0);
      } catch (error) {
        const code = errorCode(error);
        const clean = await client.query("SELECT pg_advisory_unlock_all()").then(
          () => true,
          () => false,
        );
        client.release(clean ? undefined : true);
        if (bounded && code === "55P03") {
          // Waited too long for a key while holding others: each caller tries alone.
          await Promise.all(group.map((waiter) => this.#lock([waiter], false)));
          return;
        }
        if (code === "40P01" && attempt < DEADLOCK_RETRIES) {
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 50));
          continue;
        }
        for (const waiter of group) waiter.reject(this.#options.fail(error, "take cluster locks"));
        return;
      }
      new HeldGroup(client, group.length).handOut(group, head);
      return;
    }
  }
}

/**
 * Locks `keys` in order and reads the head, in one message (the simple protocol runs its
 * statements in order; each takes its snapshot when it starts, so the head's sees every change
 * committed before the last key was held). `timeoutMs` > 0 bounds the wait for each key.
 */
async function lockKeys(
  client: pg.PoolClient,
  keys: readonly string[],
  timeoutMs: number,
): Promise<number | undefined> {
  const text =
    (timeoutMs > 0
      ? `SELECT set_config('lock_timeout', '${Math.floor(timeoutMs)}ms', true); `
      : "") +
    "SELECT count(*) FROM (SELECT pg_advisory_lock(k) " +
    `FROM unnest('{${keys.join(",")}}'::bigint[]) WITH ORDINALITY AS u(k, n) ORDER BY n) AS l; ` +
    "SELECT seq::text AS seq FROM memsvc_change_head";
  const results = (await client.query(text)) as unknown as pg.QueryResult[];
  const seq: unknown = results[results.length - 1]?.rows[0]?.seq;
  const head = typeof seq === "string" ? Number(seq) : undefined;
  return head !== undefined && Number.isSafeInteger(head) ? head : undefined;
}

/** One connection's held keys, released caller by caller; the last release frees the connection. */
class HeldGroup {
  readonly #client: pg.PoolClient;
  #holders: number;
  #pending: string[] = [];
  #flushing = false;
  #chain: Promise<boolean> = Promise.resolve(true);

  constructor(client: pg.PoolClient, holders: number) {
    this.#client = client;
    this.#holders = holders;
  }

  handOut(group: readonly Waiter[], head: number | undefined): void {
    for (const waiter of group) {
      let released = false;
      waiter.resolve({
        head,
        release: () => {
          if (released) return;
          released = true;
          this.#release(waiter.keys);
        },
      });
    }
  }

  #release(keys: readonly string[]): void {
    this.#holders -= 1;
    this.#pending.push(...keys);
    if (this.#flushing) return;
    this.#flushing = true;
    // The callers of one group commit settle in the same turn: one message unlocks them all.
    setImmediate(() => {
      this.#flushing = false;
      const keys = this.#pending;
      this.#pending = [];
      const last = this.#holders === 0;
      const text = last
        ? "SELECT pg_advisory_unlock_all()"
        : `SELECT count(*) FROM (SELECT pg_advisory_unlock(k) FROM unnest('{${keys.join(",")}}'::bigint[]) AS u(k)) AS l`;
      this.#chain = this.#chain.then((ok) =>
        ok
          ? this.#client.query(text).then(
              () => true,
              () => false,
            )
          : false,
      );
      if (last) {
        // A connection whose unlock failed is closed: the server releases its locks then.
        void this.#chain.then((ok) => this.#client.release(ok ? undefined : true));
      }
    });
  }
}

/** The keys in numeric order (each converted once: a comparator with BigInt costs ~1.5 ms per 1,000). */
function sortedKeys(keys: readonly string[]): string[] {
  return keys
    .map((key) => ({ key, n: BigInt(key) }))
    .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
    .map(({ key }) => key);
}
