import pg from "pg";
import { AgentServicesError } from "../../core/errors.js";
import { PostgresApiKeyStore } from "./postgres-api-key-store.js";
import { LISTENER_APPLICATION_NAME, PostgresChangeFeed } from "./postgres-change-feed.js";
import { PostgresClusterLocks } from "./postgres-cluster-locks.js";
import { postgresError } from "./postgres-errors.js";
import { checkSchema, migrateSchema, type MigrationResult } from "./postgres-migrations.js";
import { PostgresVectorStore, type PostgresStoreContext } from "./postgres-vector-store.js";

/** Options of {@link connectPostgres}; every one has a default. */
export interface PostgresConnectionOptions {
  /** Connections for reads and group-commit writes. Default 8. */
  readonly poolSize?: number;
  /**
   * Connections that hold `locks.runAll` sections while their tasks run: at most this many
   * sections (nested ones included) run at once in this process; more wait for a connection.
   * Default 16.
   */
  readonly lockPoolSize?: number;
  /** How long to wait for a connection (new or from a full pool). Default 10,000 ms. */
  readonly connectTimeoutMs?: number;
  /** Most ids one group-commit transaction writes. Default 2,000. */
  readonly maxBatchIds?: number;
  /**
   * Which changes the change log keeps: a change is pruned only when it is more than
   * `keepChanges` behind the head AND older than `keepMs` (so the last one always stays, and a
   * replica that was away less than `keepMs` catches up without reloading). Pruning runs after a
   * commit once `pruneEvery` changes have accumulated since the last one. Defaults: 100,000
   * changes, 24 h, every 1,000 changes.
   */
  readonly retention?: {
    readonly keepChanges?: number;
    readonly keepMs?: number;
    readonly pruneEvery?: number;
  };
  /** Backoff of a LISTEN connection that dropped: first and longest wait. Default 100 ms, 5 s. */
  readonly reconnectMs?: { readonly first: number; readonly max: number };
}

/** One PostgreSQL database used by the memory service: see {@link connectPostgres}. */
export interface PostgresConnection {
  /** The records (the `VectorStore` port). */
  readonly store: PostgresVectorStore;
  /** The committed changes in order (the `ChangeFeed` port). */
  readonly feed: PostgresChangeFeed;
  /** Exclusive sections and once-per-cluster turns (the `ClusterLocks` port). */
  readonly locks: PostgresClusterLocks;
  /** The tenants' API keys (the `ApiKeyStore` port; table of migration 3). */
  readonly keys: PostgresApiKeyStore;
  /** `host:port` of the server, for messages (never the password). */
  readonly target: string;
  /** Applies the missing schema migrations (see `MIGRATIONS`); safe from several replicas at once. */
  migrate(): Promise<MigrationResult>;
  /**
   * The database's schema version; throws `config_invalid` when it is newer than this binary,
   * or (with `requireCurrent`) older.
   */
  schemaVersion(options?: { readonly requireCurrent?: boolean }): Promise<number>;
  /**
   * How many sessions follow this database's change feed (`feed.listen`, one per running
   * replica), this process's included: `memsvc reindex` refuses to run beside replicas.
   */
  listeners(): Promise<number>;
  /** Waits for writes in flight, stops listeners, closes every connection. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL and checks that it answers: a clear coded error (naming host:port and
 * the cause) for a bad URL, an unreachable server, a wrong password or a missing database.
 * Migrations are not applied here: call `migrate()` (the service does at start; `memsvc migrate`
 * does alone).
 *
 * Connections: `poolSize` (default 8) for reads and writes, `lockPoolSize` (default 16) for lock
 * sections, plus one per `feed.listen`. Size PostgreSQL's `max_connections` for every replica.
 *
 * @example
 * const postgres = await connectPostgres("postgres://memsvc:secret@db:5432/memsvc");
 * await postgres.migrate();
 * const { store, feed, locks } = postgres;
 * // …
 * await postgres.close();
 */
export async function connectPostgres(
  url: string,
  options: PostgresConnectionOptions = {},
): Promise<PostgresConnection> {
  const target = targetOf(url);
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    application_name: "memsvc",
  };
  const pool = newPool(clientConfig, options.poolSize ?? 8);
  const lockPool = newPool(clientConfig, options.lockPoolSize ?? 16);
  const retention = {
    keepChanges: Math.max(1, options.retention?.keepChanges ?? 100_000),
    keepMs: Math.max(0, options.retention?.keepMs ?? 24 * 3_600_000),
    pruneEvery: Math.max(1, options.retention?.pruneEvery ?? 1_000),
  };

  let closed = false;
  let closing: Promise<void> | undefined;
  const listeners = new Set<() => Promise<void>>();
  let lastPrunedHead = 0;
  let pruning: Promise<void> | undefined;

  const checkOpen = () => {
    if (closed) {
      throw new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: the connection to PostgreSQL at ${target} is closed`,
      );
    }
  };
  const query: PostgresStoreContext["query"] = async (action, text, values, name) => {
    checkOpen();
    try {
      return name === undefined
        ? await pool.query(text, values)
        : await pool.query({ name, text, ...(values === undefined ? {} : { values }) });
    } catch (error) {
      throw postgresError(error, target, action);
    }
  };
  const transact: PostgresStoreContext["transact"] = async (action, work) => {
    checkOpen();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw postgresError(error, target, action);
    }
    try {
      await client.query("BEGIN");
      await work(client);
      await client.query("COMMIT");
      client.release();
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      // A connection that failed mid-transaction is not trusted again.
      client.release(true);
      throw postgresError(error, target, action);
    }
  };
  // A commit while a prune is in flight leaves its head here: pruned once that one ends (commits
  // of one round trip can all land while the first prune runs).
  let pendingPruneHead = 0;
  const prune = (head: number) => {
    if (head - lastPrunedHead < retention.pruneEvery) return;
    if (pruning !== undefined) {
      pendingPruneHead = Math.max(pendingPruneHead, head);
      return;
    }
    lastPrunedHead = head;
    pruning = pool
      .query(
        `DELETE FROM memsvc_changes
         WHERE seq <= $1::bigint - $2::bigint AND committed_at < now() - $3::bigint * interval '1 millisecond'`,
        [head, retention.keepChanges, retention.keepMs],
      )
      .then(
        () => undefined,
        () => undefined, // retried after the next pruneEvery changes
      )
      .finally(() => {
        pruning = undefined;
        const next = pendingPruneHead;
        pendingPruneHead = 0;
        if (next > 0) prune(next);
      });
  };

  // The store announces its commits to the feed, built next: a holder breaks the cycle.
  const feedHolder: { feed?: PostgresChangeFeed } = {};
  const close = async (): Promise<void> => {
    closing ??= (async () => {
      await store.idle();
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      while (pruning !== undefined) await pruning;
      await Promise.all([pool.end(), lockPool.end()]);
    })();
    await closing;
  };
  const store: PostgresVectorStore = new PostgresVectorStore({
    pool,
    query,
    transact,
    checkOpen,
    close,
    maxBatchIds: options.maxBatchIds ?? 2_000,
    onCommit: (head, created) => {
      feedHolder.feed?.announce(head, { created });
      prune(head);
    },
  });
  const feed = new PostgresChangeFeed({
    query,
    checkOpen,
    clientConfig,
    target,
    reconnectMs: options.reconnectMs ?? { first: 100, max: 5_000 },
    ownCommitInFlight: () => store.commitInFlight(),
    track(stop) {
      listeners.add(stop);
      return () => listeners.delete(stop);
    },
  });
  feedHolder.feed = feed;
  const locks = new PostgresClusterLocks({
    query,
    checkOpen,
    lockPool,
    target,
    ownCommitInFlight: () => store.commitInFlight(),
  });

  try {
    await query("connect", "SELECT 1");
  } catch (error) {
    await close();
    throw error;
  }

  return {
    store,
    feed,
    locks,
    keys: new PostgresApiKeyStore({ query }),
    target,
    async migrate() {
      checkOpen();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw postgresError(error, target, "migrate the schema");
      }
      try {
        const result = await migrateSchema(client, target);
        client.release();
        return result;
      } catch (error) {
        client.release(true);
        throw postgresError(error, target, "migrate the schema");
      }
    },
    async schemaVersion(check = {}) {
      checkOpen();
      try {
        return await checkSchema(pool, target, check);
      } catch (error) {
        throw postgresError(error, target, "read the schema version");
      }
    },
    async listeners() {
      const { rows } = await query<{ n: number }>(
        "count the replicas following the change feed",
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
        [LISTENER_APPLICATION_NAME],
      );
      return rows[0]?.n ?? 0;
    },
    close,
  };
}

function newPool(config: pg.ClientConfig, max: number): pg.Pool {
  const pool = new pg.Pool({ ...config, max: Math.max(1, Math.floor(max)) });
  // An idle connection that the server dropped (a restart) must not crash the process; the next
  // query opens a new one.
  pool.on("error", () => undefined);
  // A checked-out connection that drops between two queries (a lock held while its task runs)
  // emits "error" too: the next query on it fails and is translated; the event must not crash.
  pool.on("connect", (client) => client.on("error", () => undefined));
  return pool;
}

/** `host:port` of a postgres:// URL; `config_invalid` naming the setting when it is no URL. */
function targetOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AgentServicesError(
      "config_invalid",
      "vector_store.postgres.url: expected a postgres:// URL (postgres://user:password@host:5432/database)",
    );
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new AgentServicesError(
      "config_invalid",
      `vector_store.postgres.url: expected a postgres:// URL, got the scheme "${parsed.protocol}"`,
    );
  }
  return postgresHostPort(parsed);
}

/**
 * `host:port` of a parsed postgres:// URL as node-postgres reads it: `?host=` (a socket
 * directory, say) and `?port=` win over the authority; localhost and 5432 by default. What
 * errors and the service's startup line name, never the password.
 *
 * @example
 * postgresHostPort(new URL("postgres://app:secret@db/memories"));        // "db:5432"
 * postgresHostPort(new URL("postgres:///memories?host=/run/postgresql")); // "/run/postgresql:5432"
 */
export function postgresHostPort(parsed: URL): string {
  const query = parsed.searchParams;
  return `${query.get("host") ?? (parsed.hostname || "localhost")}:${query.get("port") ?? (parsed.port || "5432")}`;
}
