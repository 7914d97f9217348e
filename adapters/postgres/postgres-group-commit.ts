import type pg from "pg";
import { mergeWrites, sizeOf, type StoreWrite } from "../../core/storage/merge-writes.js";
import { encodeVectors } from "./postgres-vectors.js";

/** The channel every write transaction notifies on; the payload is the new head seq. */
export const CHANGES_CHANNEL = "memsvc_changes";

interface Pending {
  readonly write: StoreWrite;
  resolve(deleted: number): void;
  reject(error: unknown): void;
}

/**
 * What a statement of the group commit returns: the new head, the ids it deleted (deletes count
 * them), and the ids whose rows it created with their places among the statement's changes
 * (`created_at` null: every change created its row, in order).
 */
interface LoggedRow {
  readonly seq: string;
  readonly ids: string[] | null;
  readonly created: string[] | null;
  readonly created_at: number[] | null;
  readonly total: string | null;
}

/** The changes of a commit that created their records (see `OwnCommit`). */
export type CreatedChanges = { readonly seq: number; readonly id: string }[];

/** Runs one statement; `client` is the transaction's, or absent: the statement commits alone. */
type Execute = (text: string, values: unknown[]) => Promise<{ rows: LoggedRow[] }>;

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** Runs one transaction on a pooled client (BEGIN … COMMIT, errors translated). */
  readonly transact: (work: (client: pg.ClientBase) => Promise<void>) => Promise<void>;
  /**
   * Runs one statement on the pool in its own transaction (autocommit: PostgreSQL commits it
   * before answering), errors translated. A group of writes of one kind is one such statement.
   */
  readonly statement: (text: string, values: unknown[]) => Promise<{ rows: LoggedRow[] }>;
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

  constructor(options: GroupCommitOptions) {
    this.#options = options;
  }

  /** Queues a write; resolves (with the number of deleted ids for a delete) once committed. */
  write(write: StoreWrite): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ write, resolve, reject });
      this.#running ??= this.#drain();
    });
  }

  /** Resolves when every queued write has settled. */
  async idle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#take();
        await this.#commit(batch);
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
      const size = sizeOf(pending.write);
      if (n > 0 && ids + size > maxIds) break;
      ids += size;
      n += 1;
    }
    return this.#queue.splice(0, n);
  }

  async #commit(batch: Pending[]): Promise<void> {
    const deleted = new Map<Pending, number>();
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
          const execute: Execute = (text, values) => client.query<LoggedRow>(text, values);
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
 * part serialised across replicas), and not at all when nothing was written. Returns the new
 * head (no row: nothing changed); with `returnIds` (deletes count them), the ids written; with
 * `returnCreated` (`written` then has a column `created`), the ids whose rows the write created,
 * in seq order, and their places `n` unless every change created its row.
 */
const logWritten = (returnIds: boolean, returnCreated = false) => `
  , changed AS (
    SELECT id, ${returnCreated ? "created" : "false AS created"},
      row_number() OVER () AS n, count(*) OVER () AS total FROM written
  ), head AS (
    UPDATE memsvc_change_head SET seq = seq + (SELECT count(*) FROM written)
    WHERE EXISTS (SELECT 1 FROM written)
    RETURNING seq
  ), logged AS (
    INSERT INTO memsvc_changes (seq, id)
    SELECT head.seq - changed.total + changed.n, changed.id FROM head, changed
  )
  SELECT head.seq::text AS seq, ${returnIds ? "(SELECT array_agg(id) FROM written)" : "NULL::text[]"} AS ids,
    ${returnCreated ? "(SELECT array_agg(id ORDER BY n) FROM changed WHERE created)" : "NULL::text[]"} AS created,
    ${returnCreated ? "(SELECT CASE WHEN bool_and(created) THEN NULL ELSE array_agg(n ORDER BY n) FILTER (WHERE created) END FROM changed)" : "NULL::int[]"} AS created_at,
    (SELECT count(*) FROM changed)::text AS total,
    pg_notify('${CHANGES_CHANNEL}', head.seq::text)
  FROM head`;

/**
 * The vectors travel as one binary parameter ($4), cut by start ($5, 1-based) and length ($6).
 * The `tenant` column mirrors the metadata key `tenant` (absent: 'default'; issue 23), so rows
 * can be counted or selected by tenant in SQL; the metadata stays the record's whole truth.
 */
const UPSERT = `
  WITH written AS (
    INSERT INTO memsvc_memories AS m (id, document, metadata, vector, tenant)
    SELECT u.id, u.document, u.metadata, substring($4::bytea FROM u.start FOR u.length),
      COALESCE(u.metadata->>'tenant', 'default')
    FROM unnest($1::text[], $2::text[], $3::jsonb[], $5::int[], $6::int[])
      AS u(id, document, metadata, start, length)
    ON CONFLICT (id) DO UPDATE SET
      document = EXCLUDED.document,
      vector = EXCLUDED.vector,
      metadata = m.metadata || EXCLUDED.metadata,
      tenant = COALESCE((m.metadata || EXCLUDED.metadata)->>'tenant', 'default')
    RETURNING m.id, m.xmax = 0 AS created
  )${logWritten(false, true)}`;

const UPDATE = `
  WITH written AS (
    UPDATE memsvc_memories AS m SET metadata = m.metadata || u.metadata
    FROM unnest($1::text[], $2::jsonb[]) AS u(id, metadata)
    WHERE m.id = u.id
    RETURNING m.id
  )${logWritten(false)}`;

const DELETE = `
  WITH written AS (
    DELETE FROM memsvc_memories WHERE id = ANY($1::text[]) RETURNING id
  )${logWritten(true)}`;

/**
 * Applies one run of writes in one statement (written, logged, notified); records each delete's
 * count and returns the new head (0: nothing changed).
 */
async function applyRun(
  execute: Execute,
  run: readonly Pending[],
  deleted: Map<Pending, number>,
  created: CreatedChanges,
): Promise<number> {
  const [merged] = mergeWrites(run.map((p) => p.write));
  if (merged === undefined) return 0;
  let rows: LoggedRow[];
  switch (merged.op) {
    case "upsert": {
      const { records } = merged;
      const vectors = encodeVectors(records.map((r) => r.vector));
      ({ rows } = await execute(UPSERT, [
        records.map((r) => r.id),
        records.map((r) => r.document),
        records.map((r) => JSON.stringify(r.metadata)),
        vectors.bytes,
        vectors.starts,
        vectors.lengths,
      ]));
      break;
    }
    case "update":
      ({ rows } = await execute(UPDATE, [
        merged.updates.map((u) => u.id),
        merged.updates.map((u) => JSON.stringify(u.metadata)),
      ]));
      break;
    case "delete": {
      ({ rows } = await execute(DELETE, [merged.ids]));
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
  const head = Number(rows[0]?.seq ?? 0);
  noteCreated(rows[0], head, created);
  return head;
}

/** Adds the changes of a statement's answer that created their rows to `created`. */
function noteCreated(row: LoggedRow | undefined, head: number, created: CreatedChanges): void {
  if (row === undefined || row.created === null || row.created.length === 0) return;
  // The statement's changes are seqs head - total + 1 … head, the n-th at head - total + n.
  const first = head - Number(row.total);
  const places = row.created_at;
  row.created.forEach((id, i) => {
    // No places: every change created its row, so the i-th created is the (i + 1)-th change.
    created.push({ seq: first + (places === null ? i + 1 : Number(places[i])), id });
  });
}
