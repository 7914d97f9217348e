import type pg from "pg";
import { AgentServicesError } from "../../core/errors.js";
import type {
  Metadata,
  NewRecord,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "../../core/ports/vector-store.js";
import type { StoreWrite } from "../../core/storage/merge-writes.js";
import { GroupCommit, type CreatedChanges } from "./postgres-group-commit.js";
import { advisoryKey } from "./postgres-keys.js";
import { decodeVector } from "./postgres-vectors.js";

/** What the store needs from its connection (see `connectPostgres`). */
export interface PostgresStoreContext {
  readonly pool: pg.Pool;
  /**
   * Runs a query on the pool, translating failures to coded errors naming the server. With
   * `name`, as a prepared statement (parsed once per connection, planned generically once
   * PostgreSQL finds that as good): for the statements run once or more per request.
   */
  query<R extends pg.QueryResultRow>(
    action: string,
    text: string,
    values?: unknown[],
    name?: string,
  ): Promise<pg.QueryResult<R>>;
  /** One transaction on a pooled client (BEGIN … COMMIT), failures translated. */
  transact(action: string, work: (client: pg.ClientBase) => Promise<void>): Promise<void>;
  /** Throws `store_unavailable` once the connection is closed. */
  checkOpen(): void;
  /** Closes the whole connection (pool, listeners). */
  close(): Promise<void>;
  /** Most ids one group-commit transaction writes. */
  readonly maxBatchIds: number;
  /**
   * Called after each commit that changed something, before its writes resolve, with the new
   * head and the changes that created their records.
   */
  readonly onCommit: (head: number, created: CreatedChanges) => void;
}

/**
 * The memory service's {@link VectorStore} on PostgreSQL (table `memsvc_memories`, see
 * docs/postgres-store.md). Every write resolves only after PostgreSQL committed it, and
 * concurrent writes share transactions ({@link GroupCommit}); each changed id gets a change-log
 * row, which `PostgresChangeFeed` reads. Scans page by id (keyset pagination). It keeps no
 * snapshot mark: a service on PostgreSQL always loads from the store.
 *
 * `close()` closes the whole connection it came from (the service closes its store last).
 *
 * @example
 * const postgres = await connectPostgres("postgres://memsvc@db:5432/memsvc");
 * await postgres.migrate();
 * await postgres.store.bind({ embedderId: "local-hash-v1:256", dimensions: 256 });
 * await postgres.store.upsert([{ id, vector, document: "text", metadata: {} }]);
 */
export class PostgresVectorStore implements VectorStore {
  readonly #context: PostgresStoreContext;
  readonly #commits: GroupCommit;
  #space: VectorSpace | undefined;

  constructor(context: PostgresStoreContext) {
    this.#context = context;
    this.#commits = new GroupCommit({
      transact: (work) => context.transact("commit a write", work),
      statement: (text, values, name) => context.query("commit a write", text, values, name),
      maxIds: context.maxBatchIds,
      onCommit: context.onCommit,
    });
  }

  /**
   * The write commit in flight now, if any: resolves once it settled and its writers ran on
   * (see `GroupCommit.inFlight`).
   *
   * @example
   * await store.commitInFlight(); // this process's changes committed so far are announced
   */
  commitInFlight(): Promise<void> | undefined {
    return this.#commits.inFlight();
  }

  async bind(space: VectorSpace, options: { readonly replace?: boolean } = {}): Promise<void> {
    if (options.replace === true) {
      await this.#context.query(
        "bind the vector space",
        `INSERT INTO memsvc_vector_space (singleton, embedder_id, dimensions) VALUES (true, $1, $2)
         ON CONFLICT (singleton) DO UPDATE SET embedder_id = $1, dimensions = $2`,
        [space.embedderId, space.dimensions],
      );
      this.#space = space;
      return;
    }
    // Two replicas binding at once: the first insert wins, both compare with what is stored.
    // (The loser's statement may not see the winner's row yet: it asks again.)
    let stored: { embedder_id: string; dimensions: number } | undefined;
    for (let attempt = 0; stored === undefined && attempt < 5; attempt += 1) {
      const { rows } = await this.#context.query<{ embedder_id: string; dimensions: number }>(
        "bind the vector space",
        `WITH inserted AS (
           INSERT INTO memsvc_vector_space (singleton, embedder_id, dimensions)
           VALUES (true, $1, $2)
           ON CONFLICT (singleton) DO NOTHING RETURNING embedder_id, dimensions
         )
         SELECT embedder_id, dimensions FROM inserted
         UNION ALL SELECT embedder_id, dimensions FROM memsvc_vector_space`,
        [space.embedderId, space.dimensions],
      );
      stored = rows[0];
    }
    if (stored === undefined) throw new Error("memsvc_vector_space has no row after an insert");
    const bound = { embedderId: stored.embedder_id, dimensions: stored.dimensions };
    if (bound.embedderId !== space.embedderId || bound.dimensions !== space.dimensions) {
      throw new AgentServicesError(
        "embedder_mismatch",
        `the PostgreSQL store holds vectors of embedder ${describe(bound)}, not ${describe(space)}`,
      );
    }
    this.#space = bound;
  }

  async upsert(records: readonly VectorRecord[]): Promise<void> {
    this.#checkRecords(records);
    await this.#write({ op: "upsert", records });
  }

  /**
   * See `VectorStore.insertNew`: one call of `memsvc_insert_new` per group commit, which tries
   * each lock key as a transaction-scoped advisory lock (the keys of `PostgresClusterLocks`,
   * without waiting) and then, with a fresh snapshot, leaves out the items a record changed
   * after their `seen` matches (`metadata @> match`).
   */
  async insertNew(items: readonly NewRecord[]): Promise<ReadonlySet<string>> {
    if (items.length === 0) return new Set();
    this.#checkRecords(items.map((i) => i.record));
    for (const { record, match } of items) checkMetadata(record.id, match);
    return this.#commits.insertNew({
      op: "insert-new",
      items: items.map(({ record, lockKey, match, seen }) => ({
        record,
        key: advisoryKey(lockKey),
        match,
        seen,
      })),
    });
  }

  #checkRecords(records: readonly VectorRecord[]): void {
    this.#context.checkOpen();
    for (const record of records) {
      if (this.#space !== undefined && record.vector.length !== this.#space.dimensions) {
        throw new AgentServicesError(
          "embedder_mismatch",
          `vector of record ${record.id} has ${record.vector.length} dimensions, expected ${this.#space.dimensions}`,
        );
      }
      checkText(`record ${record.id}: id`, record.id);
      checkText(`record ${record.id}: document`, record.document);
      checkMetadata(record.id, record.metadata);
    }
  }

  async get(ids: readonly string[]): Promise<StoredRecord[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.#context.query<{
      id: string;
      document: string;
      metadata: Metadata;
    }>(
      "read records",
      "SELECT id, document, metadata FROM memsvc_memories WHERE id = ANY($1::text[])",
      [ids.filter((id) => !id.includes("\u0000"))],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: StoredRecord[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (row !== undefined) out.push({ id, document: row.document, metadata: row.metadata });
    }
    return out;
  }

  async updateMetadata(updates: readonly { id: string; metadata: Metadata }[]): Promise<void> {
    this.#context.checkOpen();
    for (const update of updates) checkMetadata(update.id, update.metadata);
    const known = updates.filter((u) => !u.id.includes("\u0000"));
    await this.#write({ op: "update", updates: known });
  }

  async delete(ids: readonly string[]): Promise<number> {
    this.#context.checkOpen();
    return this.#write({ op: "delete", ids: ids.filter((id) => !id.includes("\u0000")) });
  }

  async scan(cursor: string | undefined, limit: number): Promise<ScanPage> {
    const size = Math.max(1, Math.floor(limit));
    if (cursor !== undefined && !/^\d+$/.test(cursor)) {
      throw new Error(`PostgresVectorStore.scan: invalid cursor ${JSON.stringify(cursor)}`);
    }
    // In writing order (an update keeps its place): a load keeps the memories' store neighbours.
    const { rows } = await this.#context.query<{
      write_order: string;
      id: string;
      document: string;
      metadata: Metadata;
      vector: Buffer;
    }>(
      "scan records",
      cursor === undefined
        ? "SELECT write_order, id, document, metadata, vector FROM memsvc_memories ORDER BY write_order LIMIT $1"
        : "SELECT write_order, id, document, metadata, vector FROM memsvc_memories WHERE write_order > $2::bigint ORDER BY write_order LIMIT $1",
      cursor === undefined ? [size] : [size, cursor],
    );
    const records = rows.map((r) => ({
      id: r.id,
      vector: decodeVector(r.vector),
      document: r.document,
      metadata: r.metadata,
    }));
    return { records, next: rows.length === size ? rows[rows.length - 1]?.write_order : undefined };
  }

  async count(): Promise<number> {
    const { rows } = await this.#context.query<{ n: string }>(
      "count records",
      "SELECT count(*) AS n FROM memsvc_memories",
    );
    return Number(rows[0]?.n ?? 0);
  }

  async ping(): Promise<void> {
    await this.#context.query("answer a ping", "SELECT 1");
  }

  /** Waits for the writes in flight, then closes the connection (pool and listeners). */
  async close(): Promise<void> {
    await this.#commits.idle();
    await this.#context.close();
  }

  /** Resolves when every write queued so far has settled. */
  async idle(): Promise<void> {
    await this.#commits.idle();
  }

  #write(write: StoreWrite): Promise<number> {
    return this.#commits.write(write);
  }
}

function describe(space: VectorSpace): string {
  return `"${space.embedderId}" (${space.dimensions} dimensions)`;
}

/** PostgreSQL text cannot hold NUL: refuse it before it fails a whole group of writes. */
function checkText(field: string, value: string): void {
  if (value.includes("\u0000")) {
    throw new AgentServicesError(
      "invalid_input",
      `${field}: PostgreSQL text cannot hold the NUL character (\\u0000)`,
    );
  }
}

function checkMetadata(id: string, metadata: Metadata): void {
  // `for…in` over own keys: no [key, value] array per key (a batch of 1,000 has ~12,000 keys).
  for (const key in metadata) {
    if (!Object.hasOwn(metadata, key)) continue;
    const value = metadata[key];
    checkText(`record ${id}: metadata key`, key);
    if (typeof value === "string") checkText(`record ${id}: metadata.${key}`, value);
    else if (typeof value === "number" && !Number.isFinite(value)) {
      throw new AgentServicesError(
        "invalid_input",
        `record ${id}: metadata.${key}: expected a finite number, got ${String(value)}`,
      );
    }
  }
}
