import pg from "pg";
import type { ChangeFeed, OwnCommit, StoreChange } from "../../core/ports/replication.js";
import type { Metadata } from "../../core/ports/vector-store.js";
import { CHANGES_CHANNEL } from "./postgres-group-commit.js";
import { postgresError } from "./postgres-errors.js";
import type { PostgresStoreContext } from "./postgres-vector-store.js";
import { decodeVector } from "./postgres-vectors.js";

/** What the feed needs besides the store's context. */
export interface PostgresFeedContext extends Pick<PostgresStoreContext, "query" | "checkOpen"> {
  /** The settings of a dedicated (unpooled) client for LISTEN. */
  readonly clientConfig: pg.ClientConfig;
  /** host:port, for messages. */
  readonly target: string;
  /** First and longest wait between reconnection attempts of a listener. */
  readonly reconnectMs: { readonly first: number; readonly max: number };
  /** Registers a listener to stop when the connection closes; returns the unregistration. */
  track(stop: () => Promise<void>): () => void;
  /**
   * This process's write commit in flight, if any (see `PostgresVectorStore.commitInFlight`): a
   * notification that arrives meanwhile is delivered once it settled, when the writers hold
   * what they created (else the listener would read this process's own changes back).
   */
  readonly ownCommitInFlight?: () => Promise<void> | undefined;
}

/**
 * The changes after `$1`, at most `$2`, with their rows as they are now. Written so that the plan
 * cannot depend on the tables' statistics (young tables have none, and the plain join
 * `… WHERE seq > $1 ORDER BY seq LIMIT $2` was planned as a hash join over a sequential scan of
 * every memory, 2-30 ms per call at 1,000-10,000 rows): the seqs are a range (gapless above the
 * oldest kept change, so `seq > a AND seq <= a + limit` is the next `limit` changes; when `$1 + 1`
 * was pruned the range starts at the oldest kept one and the caller sees the gap), and each row
 * is one index lookup (a LATERAL subquery with LIMIT is not flattened into a join).
 */
const CHANGES_SINCE = `
  WITH after AS (
    SELECT GREATEST($1::bigint, (SELECT min(seq) FROM memsvc_changes) - 1) AS seq
  )
  SELECT c.seq::text AS seq, c.id, m.document, m.metadata, m.vector
  FROM after, memsvc_changes c
  LEFT JOIN LATERAL (
    SELECT document, metadata, vector FROM memsvc_memories WHERE id = c.id LIMIT 1
  ) m ON true
  WHERE c.seq > after.seq AND c.seq <= after.seq + $2::bigint
  ORDER BY c.seq`;

/**
 * The {@link ChangeFeed} of the PostgreSQL store: the change log `memsvc_changes` (one row per
 * changed id and seq, written in the write's transaction, gapless in commit order: see
 * `GroupCommit`) read with the rows as they are now, and `LISTEN memsvc_changes` on a dedicated
 * connection that reconnects by itself (backoff from `reconnectMs.first` to `.max`).
 *
 * Old changes are pruned (see `PostgresConnectionOptions.retention`); a replica that falls
 * further behind gets a first change past `after + 1` and reloads.
 *
 * @example
 * const stop = await postgres.feed.listen((head) => wake(head), (up) => setReady(up));
 * const changes = await postgres.feed.changesSince(applied, 1000);
 */
export class PostgresChangeFeed implements ChangeFeed {
  readonly #context: PostgresFeedContext;
  readonly #local = new Set<(head: number, own?: OwnCommit) => void>();

  constructor(context: PostgresFeedContext) {
    this.#context = context;
  }

  async head(): Promise<number> {
    const { rows } = await this.#context.query<{ seq: string }>(
      "read the change head",
      "SELECT seq::text AS seq FROM memsvc_change_head",
    );
    return Number(rows[0]?.seq ?? 0);
  }

  async changesSince(after: number, limit: number): Promise<StoreChange[]> {
    const { rows } = await this.#context.query<{
      seq: string;
      id: string;
      document: string | null;
      metadata: Metadata | null;
      vector: Buffer | null;
    }>(
      "read changes",
      CHANGES_SINCE,
      [Math.floor(after), Math.max(1, Math.floor(limit))],
      "memsvc_changes_since",
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      id: row.id,
      record:
        row.document === null || row.vector === null
          ? undefined
          : {
              id: row.id,
              vector: decodeVector(row.vector),
              document: row.document,
              metadata: row.metadata ?? {},
            },
    }));
  }

  /** `seq:id:µs since the epoch of its commit`; the commit instant and id name the database. */
  async stamp(seq: number): Promise<string | undefined> {
    const { rows } = await this.#context.query<{ id: string; at: string }>(
      "read a change's stamp",
      "SELECT id, (extract(epoch FROM committed_at) * 1000000)::bigint::text AS at FROM memsvc_changes WHERE seq = $1",
      [Math.floor(seq)],
    );
    const row = rows[0];
    return row === undefined ? undefined : `${Math.floor(seq)}:${row.id}:${row.at}`;
  }

  async listen(
    onCommit: (head: number, own?: OwnCommit) => void,
    onConnection?: (up: boolean, error?: unknown) => void,
  ): Promise<() => Promise<void>> {
    this.#context.checkOpen();
    const listener = new Listener(this.#context, onCommit, onConnection);
    await listener.start();
    // This process's own commits are announced at once (before the writes resolve, with the
    // records they created), besides the NOTIFY that every listener gets.
    this.#local.add(onCommit);
    const untrack = this.#context.track(() => listener.stop());
    return async () => {
      this.#local.delete(onCommit);
      untrack();
      await listener.stop();
    };
  }

  /** Announces a commit of this process to its listeners (called by the store). */
  announce(head: number, own: OwnCommit): void {
    for (const onCommit of this.#local) onCommit(head, own);
  }
}

/** The `application_name` of a LISTEN connection: one per replica following the feed. */
export const LISTENER_APPLICATION_NAME = "memsvc listener";

/** One LISTEN connection that comes back by itself. */
class Listener {
  readonly #context: PostgresFeedContext;
  readonly #onCommit: (head: number) => void;
  readonly #onConnection: ((up: boolean, error?: unknown) => void) | undefined;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  #wakeRetry: (() => void) | undefined;

  constructor(
    context: PostgresFeedContext,
    onCommit: (head: number) => void,
    onConnection: ((up: boolean, error?: unknown) => void) | undefined,
  ) {
    this.#context = context;
    this.#onCommit = onCommit;
    this.#onConnection = onConnection;
  }

  /** Connects and listens; throws a coded error when the first attempt fails. */
  async start(): Promise<void> {
    this.#client = await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    this.#wakeRetry?.();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<pg.Client> {
    // Named apart, so that `PostgresConnection.listeners()` counts the replicas following.
    const client = new pg.Client({
      ...this.#context.clientConfig,
      application_name: LISTENER_APPLICATION_NAME,
    });
    let down = false;
    const lost = (error: unknown) => {
      if (down) return;
      down = true;
      client.removeAllListeners("notification");
      void client.end().catch(() => undefined);
      if (this.#stopped || this.#client !== client) return;
      this.#client = undefined;
      this.#onConnection?.(false, error);
      void this.#reconnect();
    };
    client.on("error", lost);
    client.on("end", () =>
      lost(new Error(`the LISTEN connection to ${this.#context.target} ended`)),
    );
    client.on("notification", (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const head = Number(message.payload);
      const known = Number.isSafeInteger(head) ? head : 0;
      const pending = this.#context.ownCommitInFlight?.();
      if (pending === undefined) this.#onCommit(known);
      else void pending.then(() => this.#onCommit(known));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      down = true;
      client.removeAllListeners();
      client.on("error", () => undefined);
      await client.end().catch(() => undefined);
      throw postgresError(error, this.#context.target, "listen for changes");
    }
    return client;
  }

  async #reconnect(): Promise<void> {
    let wait = this.#context.reconnectMs.first;
    while (!this.#stopped) {
      await new Promise<void>((resolve) => {
        this.#wakeRetry = resolve;
        this.#retry = setTimeout(resolve, wait);
      });
      if (this.#stopped) return;
      try {
        const client = await this.#connect();
        if (this.#stopped) {
          await client.end().catch(() => undefined);
          return;
        }
        this.#client = client;
        this.#onConnection?.(true);
        return;
      } catch {
        wait = Math.min(wait * 2, this.#context.reconnectMs.max);
      }
    }
  }
}
