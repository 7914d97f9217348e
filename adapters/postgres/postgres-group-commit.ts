import type pg from "pg";
import type { Metadata, VectorRecord } from "../../core/ports/vector-store.js";
import { mergeWrites, sizeOf, type StoreWrite } from "../../core/storage/merge-writes.js";
import { encodeVectors } from "./postgres-vectors.js";

/** The channel every write transaction notifies on; the payload is the new head seq. */
export const CHANGES_CHANNEL = "memsvc_changes";

/** Items of `VectorStore.insertNew`, each with its lock key as an advisory key (decimal). */
export interface InsertNewWrite {
  readonly op: "insert-new";
  readonly items: readonly {
    readonly record: VectorRecord;
    readonly key: string;
    readonly match: Metadata;
    readonly seen: number;
  }[];
}

type GroupWrite = StoreWrite | InsertNewWrite;

interface Pending {
  readonly write: GroupWrite;
  /** A delete's count, an insert-new's ids left out, else 0. */
  resolve(result: number | ReadonlySet<string>): void;
  reject(error: unknown): void;
}

/**
 * What a statement of the group commit returns: the new head, its number of changes, the ids it
 * deleted (deletes count them), and for an upsert the places (1 … total, bigint as text) of the
 * changes that updated a row instead of creating it (null: none).
 */
interface LoggedRow {
  readonly seq: string;
  readonly total: number;
  readonly ids: string[] | null;
  readonly updated: string[] | null;
}

/** The changes of a commit that created their records (see `OwnCommit`). */
export type CreatedChanges = { readonly seq: number; readonly id: string }[];

/** Runs one statement; `client` is the transaction's, or absent: the statement commits alone. */
type Execute = (text: string, values: unknown[], name: string) => Promise<{ rows: LoggedRow[] }>;

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** Runs one transaction on a pooled client (BEGIN … COMMIT, errors translated). */
  readonly transact: (work: (client: pg.ClientBase) => Promise<void>) => Promise<void>;
  /**
   * Runs one statement on the pool in its own transaction (autocommit: PostgreSQL commits it
   * before answering), errors translated. A group of writes of one kind is one such statement.
   */
  readonly statement: (
    text: string,
    values: unknown[],
    name: string,
  ) => Promise<{ rows: LoggedRow[] }>;
  /** Most ids one transaction writes (a single larger write still goes alone). Default 2,000. */
  readonly maxIds?: number;
  /**
   * Called after each commit that changed something, before its writes resolve, with the new
   * head and the changes that created their records.
   */
  readonly onCommit?: (head: number, created: CreatedChanges) => void;
}

/**
 * Group commit: the writes that arrive while a transaction is in flight queue up, and the next
 * transaction takes them all (up to `maxIds` ids): many writers, one transaction, one WAL flush.
 * A write resolves only after its transaction's COMMIT returned; when the transaction fails
 * (including a refused or interrupted COMMIT) every write in it rejects, and nothing of it is
 * acknowledged.
 *
 * Inside a transaction the writes keep their order: consecutive writes of one kind merge into one
 * statement with `mergeWrites` (the port's semantics: upsert merges metadata keys), a delete's
 * count is what it would have been one write after another. Each statement also logs every id it
 * changed under the next seq and notifies (`logWritten`): the one-row `memsvc_change_head` is
 * updated after the write, so its row lock, held until COMMIT, serialises the writers of every
 * replica over the shortest time: seq order is commit order, without gaps. `pg_notify` is
 * delivered at commit. A group of one kind of write (the usual case) is ONE statement sent
 * without BEGIN and COMMIT: PostgreSQL commits it before it answers, so a group costs one round
 * trip; mixed kinds run in one BEGIN … COMMIT.
 *
 * @example
 * const commits = new GroupCommit({ transact });
 * const deleted = await commits.write({ op: "delete", ids: ["a"] });
 */
export class GroupCommit {
  readonly #options: GroupCommitOptions;
  readonly #queue: Pending[] = [];
  #running: Promise<void> | undefined;
  /** The commit sent and not answered yet. */
  #inFlight: Promise<void> | undefined;

  constructor(options: GroupCommitOptions) {
    this.#options = options;
  }

  /** Queues a write; resolves (with the number of deleted ids for a delete) once committed. */
  write(write: StoreWrite): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ write, resolve: (result) => resolve(result as number), reject });
      this.#running ??= this.#drain();
    });
  }

  /**
   * Queues new records (see `VectorStore.insertNew`); resolves once committed with the ids left
   * out. Their run is one call of `memsvc_insert_new`, committed alone like any run of one kind.
   */
  insertNew(write: InsertNewWrite): Promise<ReadonlySet<string>> {
    return new Promise<ReadonlySet<string>>((resolve, reject) => {
      this.#queue.push({
        write,
        resolve: (result) => resolve(result as ReadonlySet<string>),
        reject,
      });
      this.#running ??= this.#drain();
    });
  }

  /**
   * The commit in flight now, if any: resolves once it has settled and its writers have run on
   * (a turn of the event loop later: a writer adds what it created to its engine right after
   * its write resolves). A replica that read the change head while this commit was unanswered
   * waits for it instead of reading its own changes back from the feed.
   */
  inFlight(): Promise<void> | undefined {
    const commit = this.#inFlight;
    return commit?.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  }

  /** Resolves when every queued write has settled. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    try {
      // The writes of one turn of the event loop share the first transaction: concurrent
      // remembers whose locks were granted together reach here a few microtasks apart.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.#queue.length > 0) {
        const batch = this.#take();
        this.#inFlight = this.#commit(batch);
        await this.#inFlight;
        this.#inFlight = undefined;
        // Let the writers just acknowledged queue their next writes (a few microtask hops away)
        // so that they join the next transaction instead of waiting for the one after it.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.#running = undefined;
    }
  }

  #take(): Pending[] {
    const maxIds = this.#options.maxIds ?? 2_000;
    let ids = 0;
    let n = 0;
    for (const pending of this.#queue) {
      const { write } = pending;
      const size = write.op === "insert-new" ? write.items.length : sizeOf(write);
      if (n > 0 && ids + size > maxIds) break;
      ids += size;
      n += 1;
    }
    return this.#queue.splice(0, n);
  }

  async #commit(batch: Pending[]): Promise<void> {
    const deleted = new Map<Pending, number | ReadonlySet<string>>();
    let head = 0;
    let created: CreatedChanges = [];
    const runs = runsOf(batch);
    try {
      if (runs.length === 1) {
        // One kind of write: one statement that writes, logs and notifies, committed by
        // PostgreSQL before it answers (one round trip instead of BEGIN, write, log, COMMIT).
        head = await applyRun(this.#options.statement, runs[0] as Pending[], deleted, created);
      } else {
        await this.#options.transact(async (client) => {
          deleted.clear();
          created = [];
          const execute: Execute = (text, values, name) =>
            client.query<LoggedRow>({ name, text, values });
          for (const run of runs) {
            head = Math.max(head, await applyRun(execute, run, deleted, created));
          }
        });
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    // Before the writes resolve: a writer's listener learns what it created before it goes on.
    if (head > 0) this.#options.onCommit?.(head, created);
    for (const pending of batch) pending.resolve(deleted.get(pending) ?? 0);
  }
}

/** Consecutive writes of one kind. */
function runsOf(batch: readonly Pending[]): Pending[][] {
  const runs: Pending[][] = [];
  for (const pending of batch) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[0]?.write.op === pending.write.op) last.push(pending);
    else runs.push([pending]);
  }
  return runs;
}

/**
 * Logs the ids of the CTE `written` under the next seqs and notifies, at the end of every write
 * statement: the head row is updated after the write (its lock, held until COMMIT, is the only
 * part serialised across replicas), and not at all when nothing was written. `changed` numbers
 * the changes (n, 1 … total: the n-th gets seq head - total + n). Returns the new head (no row:
 * nothing changed), the number of changes, with `returnIds` (deletes count them) the ids
 * written, and for an upsert the places n of the changes that did not create their row.
 */
const logWritten = (options: { returnIds?: boolean; upsert?: boolean }) => `
  , changed AS (
    ${
      options.upsert === true
        ? `SELECT w.id, w.created, row_number() OVER (ORDER BY u.ord) AS n, count(*) OVER () AS total
    FROM written w JOIN input u ON u.id = w.id`
        : "SELECT id, false AS created, row_number() OVER () AS n, count(*) OVER () AS total FROM written"
    }
  ), head AS (
    UPDATE memsvc_change_head SET seq = seq + (SELECT count(*) FROM written)
    WHERE EXISTS (SELECT 1 FROM written)
    RETURNING seq
  ), logged AS (
    INSERT INTO memsvc_changes (seq, id)
    SELECT head.seq - changed.total + changed.n, changed.id FROM head, changed
  )
  SELECT head.seq::text AS seq, (SELECT count(*) FROM written)::int AS total,
    ${options.returnIds === true ? "(SELECT array_agg(id) FROM written)" : "NULL::text[]"} AS ids,
    ${options.upsert === true ? "(SELECT array_agg(n) FROM changed WHERE NOT created)" : "NULL::bigint[]"} AS updated,
    pg_notify('${CHANGES_CHANNEL}', head.seq::text)
  FROM head`;

/**
 * The write statements run prepared (named `memsvc_upsert`, `memsvc_update`, `memsvc_delete`):
 * parsed once per connection, and planned once PostgreSQL keeps a generic plan.
 *
 * The records travel as one JSON parameter ($1: [id, document, metadata, start, length] per
 * record; `JSON.stringify` is about ten times cheaper than node-postgres's escaping of text and
 * jsonb arrays), the vectors as one binary parameter ($2), cut by start (1-based) and length.
 * Changes are numbered in the records' order, so the writer knows each one's seq without the ids
 * coming back; `created` is true for a row the statement inserted (xmax 0), false for one it
 * updated. The `tenant` column mirrors the metadata key `tenant` (absent: 'default'; issue 23),
 * so rows can be counted or selected by tenant in SQL; the metadata stays the record's whole truth.
 */
const UPSERT = `
  WITH input AS (
    SELECT r->>0 AS id, r->>1 AS document, r->2 AS metadata, (r->>3)::int AS start,
      (r->>4)::int AS length, ord
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(r, ord)
  ), written AS (
    INSERT INTO memsvc_memories AS m (id, document, metadata, vector, tenant)
    SELECT u.id, u.document, u.metadata, substring($2::bytea FROM u.start FOR u.length),
      COALESCE(u.metadata->>'tenant', 'default')
    FROM input u
    ORDER BY u.ord
    ON CONFLICT (id) DO UPDATE SET
      document = EXCLUDED.document,
      vector = EXCLUDED.vector,
      metadata = m.metadata || EXCLUDED.metadata,
      tenant = COALESCE((m.metadata || EXCLUDED.metadata)->>'tenant', 'default')
    RETURNING m.id, m.xmax = 0 AS created
  )${logWritten({ upsert: true })}`;

const UPDATE = `
  WITH written AS (
    UPDATE memsvc_memories AS m SET metadata = m.metadata || (u.r->1)
    FROM jsonb_array_elements($1::jsonb) AS u(r)
    WHERE m.id = u.r->>0
    RETURNING m.id
  )${logWritten({})}`;

const DELETE = `
  WITH written AS (
    DELETE FROM memsvc_memories WHERE id = ANY($1::text[]) RETURNING id
  )${logWritten({ returnIds: true })}`;

/**
 * Applies one run of writes in one statement (written, logged, notified); records each delete's
 * count and returns the new head (0: nothing changed).
 */
async function applyRun(
  execute: Execute,
  run: readonly Pending[],
  deleted: Map<Pending, number | ReadonlySet<string>>,
  created: CreatedChanges,
): Promise<number> {
  if (run[0]?.write.op === "insert-new") return applyInsertNew(execute, run, deleted, created);
  const [merged] = mergeWrites(run.map((p) => p.write as StoreWrite));
  if (merged === undefined) return 0;
  let rows: LoggedRow[];
  switch (merged.op) {
    case "upsert": {
      const { records } = merged;
      const vectors = encodeVectors(records.map((r) => r.vector));
      const rowsOf = records.map((r, i) => [
        r.id,
        r.document,
        r.metadata,
        vectors.starts[i],
        vectors.lengths[i],
      ]);
      ({ rows } = await execute(UPSERT, [JSON.stringify(rowsOf), vectors.bytes], "memsvc_upsert"));
      noteCreated(rows[0], records, created);
      break;
    }
    case "update":
      ({ rows } = await execute(
        UPDATE,
        [JSON.stringify(merged.updates.map((u) => [u.id, u.metadata]))],
        "memsvc_update",
      ));
      break;
    case "delete": {
      ({ rows } = await execute(DELETE, [merged.ids], "memsvc_delete"));
      // One delete after another: an id counts for the first write that names it.
      const existed = new Set(rows[0]?.ids ?? []);
      for (const pending of run) {
        if (pending.write.op !== "delete") continue;
        let count = 0;
        for (const id of new Set(pending.write.ids)) {
          if (existed.delete(id)) count += 1;
        }
        deleted.set(pending, count);
      }
      break;
    }
  }
  return Number(rows[0]?.seq ?? 0);
}

/**
 * One call of `memsvc_insert_new` (schema version 5) for a run of insert-new writes: records
 * travel as in an upsert, each with its advisory key, seen seq and match; the answer names the
 * ids stored, in order, so the others are the ids left out.
 */
const INSERT_NEW = `SELECT out_seq::text AS seq, out_total AS total, out_ids AS ids,
  NULL::bigint[] AS updated
  FROM memsvc_insert_new($1::jsonb, $2::bytea, $3::bigint[], $4::bigint[], $5::jsonb)`;

async function applyInsertNew(
  execute: Execute,
  run: readonly Pending[],
  left: Map<Pending, number | ReadonlySet<string>>,
  created: CreatedChanges,
): Promise<number> {
  // The first item of each key goes to the database; a later one is left out here.
  const keys = new Set<string>();
  const items = [];
  for (const pending of run) {
    if (pending.write.op !== "insert-new") continue;
    for (const item of pending.write.items) {
      if (keys.has(item.key)) continue;
      keys.add(item.key);
      items.push(item);
    }
  }
  const vectors = encodeVectors(items.map((i) => i.record.vector));
  const rowsOf = items.map(({ record }, i) => [
    record.id,
    record.document,
    record.metadata,
    vectors.starts[i],
    vectors.lengths[i],
  ]);
  const { rows } = await execute(
    INSERT_NEW,
    [
      JSON.stringify(rowsOf),
      vectors.bytes,
      items.map((i) => i.key),
      items.map((i) => i.seen),
      JSON.stringify(items.map((i) => i.match)),
    ],
    "memsvc_insert_new",
  );
  const row = rows[0];
  const stored = row?.ids ?? [];
  const head = Number(row?.seq ?? 0);
  stored.forEach((id, i) => created.push({ seq: head - stored.length + i + 1, id }));
  const storedSet = new Set(stored);
  for (const pending of run) {
    if (pending.write.op !== "insert-new") continue;
    const out = pending.write.items.map((i) => i.record.id).filter((id) => !storedSet.has(id));
    left.set(pending, new Set(out));
  }
  return head;
}

/**
 * Adds the changes of an upsert's answer that created their rows to `created`: the records'
 * changes are numbered in their order, the i-th at seq head - total + i + 1.
 */
function noteCreated(
  row: LoggedRow | undefined,
  records: readonly { readonly id: string }[],
  created: CreatedChanges,
): void {
  if (row === undefined || row.total !== records.length) return;
  const first = Number(row.seq) - row.total;
  const updated = new Set((row.updated ?? []).map(Number));
  records.forEach(({ id }, i) => {
    if (!updated.has(i + 1)) created.push({ seq: first + i + 1, id });
  });
}
