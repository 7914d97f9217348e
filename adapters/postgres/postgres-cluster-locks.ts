import type pg from "pg";
import type { ClusterLocks, HeldLocks } from "../../core/ports/replication.js";
import { errorCode, postgresError } from "./postgres-errors.js";
import { advisoryKey } from "./postgres-keys.js";
import type { PostgresStoreContext } from "./postgres-vector-store.js";

/** What the locks need: a pool of their own and the store's query. */
export interface PostgresLocksContext extends Pick<PostgresStoreContext, "query" | "checkOpen"> {
  /** The pool whose connections hold the locks while tasks run (`lockPoolSize`). */
  readonly lockPool: pg.Pool;
  readonly target: string;
}

/**
 * BEGIN, the locks (one row however many keys) and the change head in one round trip (the simple
 * protocol runs the statements of one message in order; in READ COMMITTED the head's statement
 * takes its snapshot once the locks are held, so it sees every change committed before); the
 * keys are our own decimal hashes (checked), so they are written as literals.
 */
function lockAll(keys: readonly string[]): string {
  for (const key of keys) {
    if (!/^-?\d{1,20}$/.test(key)) throw new Error(`advisory key is not an integer: ${key}`);
  }
  return (
    "BEGIN; SELECT count(*) FROM (SELECT pg_advisory_xact_lock(k) " +
    `FROM unnest('{${keys.join(",")}}'::bigint[]) WITH ORDINALITY AS u(k, n) ORDER BY n) AS l; ` +
    "SELECT seq::text AS seq FROM memsvc_change_head"
  );
}

const CLAIM_TURN = `
  INSERT INTO memsvc_leases AS l (name, last_run) VALUES ($1, now())
  ON CONFLICT (name) DO UPDATE SET last_run = now()
  WHERE l.last_run <= now() - $2::bigint * interval '1 millisecond'
  RETURNING name`;

/** How many times an acquisition aborted as a deadlock is tried again. */
const DEADLOCK_RETRIES = 20;

/**
 * The {@link ClusterLocks} of the PostgreSQL store.
 *
 * `runAll` takes a connection from its own pool (`lockPoolSize`, so tasks holding locks never
 * starve the store's writes of connections), opens a transaction and takes one
 * transaction-scoped advisory lock per key (`pg_advisory_xact_lock` on a 64-bit hash of the
 * key), sorted, in the round trip of its BEGIN; the transaction stays open while `task` runs and
 * ends (releasing every lock) once it settles, even when it throws: `runAll` settles with the task
 * and sends the COMMIT (or ROLLBACK) behind it, so the release costs the caller no round trip,
 * and whoever waits for a key gets it when that COMMIT arrives. Sorted keys make two calls
 * deadlock-free; a nested call (inside a task) takes a second connection and can close a cycle,
 * which PostgreSQL aborts as a deadlock (40P01) after `deadlock_timeout` (1 s by default): the
 * acquisition is retried. A nested call on a key its caller holds waits forever: don't.
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

  constructor(context: PostgresLocksContext) {
    this.#context = context;
  }

  async runAll<T>(keys: readonly string[], task: (held: HeldLocks) => Promise<T>): Promise<T> {
    this.#context.checkOpen();
    if (keys.length === 0) return task({});
    const hashed = [...new Set(keys.map(advisoryKey))].sort((a, b) => {
      const d = BigInt(a) - BigInt(b);
      return d < 0n ? -1 : d > 0n ? 1 : 0;
    });
    const { client, head } = await this.#acquire(hashed);
    // The locks are released by the transaction's end, which is not awaited: the caller has its
    // result one round trip sooner, and whoever waits for a key gets it when the COMMIT arrives.
    try {
      const result = await task(head === undefined ? {} : { head });
      void this.#end(client, "COMMIT");
      return result;
    } catch (error) {
      void this.#end(client, "ROLLBACK");
      throw error;
    }
  }

  async claimTurn(name: string, intervalMs: number): Promise<boolean> {
    const { rows } = await this.#context.query<{ name: string }>("claim a turn", CLAIM_TURN, [
      name,
      Math.max(0, Math.floor(intervalMs)),
    ]);
    return rows.length === 1;
  }

  /** A client inside a transaction holding every key, and the change head read then. */
  async #acquire(
    keys: readonly string[],
  ): Promise<{ client: pg.PoolClient; head: number | undefined }> {
    for (let attempt = 0; ; attempt += 1) {
      let client: pg.PoolClient;
      try {
        client = await this.#context.lockPool.connect();
      } catch (error) {
        throw postgresError(error, this.#context.target, "take a lock connection");
      }
      try {
        const results = (await client.query(lockAll(keys))) as unknown as pg.QueryResult[];
        const seq: unknown = results[results.length - 1]?.rows[0]?.seq;
        const head = typeof seq === "string" ? Number(seq) : undefined;
        return { client, head: Number.isSafeInteger(head) ? head : undefined };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release(errorCode(error) === "40P01" ? undefined : true);
        if (errorCode(error) !== "40P01" || attempt >= DEADLOCK_RETRIES) {
          throw postgresError(error, this.#context.target, "take cluster locks");
        }
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 50));
      }
    }
  }

  /** Ends the transaction, releasing the locks; a broken connection releases them anyway. */
  async #end(client: pg.PoolClient, command: "COMMIT" | "ROLLBACK"): Promise<void> {
    try {
      await client.query(command);
      client.release();
    } catch {
      // The server ends the session's transaction (and its locks) when the connection goes.
      client.release(true);
    }
  }
}
