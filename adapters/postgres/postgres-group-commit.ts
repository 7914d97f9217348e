import type pg from "pg";
import { mergeWrites, sizeOf, type StoreWrite } from "../../core/storage/merge-writes.js";
import { encodeVector } from "./postgres-vectors.js";

/** The channel every write transaction notifies on; the payload is the new head seq. */
export const CHANGES_CHANNEL = "memsvc_changes";

interface Pending {
  readonly write: StoreWrite;
  resolve(deleted: number): void;
  reject(error: unknown): void;
}

/** Options of {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** Runs one transaction on a pooled client (BEGIN … COMMIT, errors translated). */
  readonly transact: (work: (client: pg.ClientBase) => Promise<void>) => Promise<void>;
  /** Most ids one transaction writes (a single larger write still goes alone). Default 2,000. */
  readonly maxIds?: number;
  /** Called after each commit with the new head (0: nothing changed). */
  readonly onCommit?: (head: number) => void;
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
 * count is what it would have been one write after another. Every id a transaction changed gets
 * one row in the change log with the next seq: the one-row `memsvc_change_head` is updated last,
 * so its row lock, held until COMMIT, serialises the writers of every replica over the shortest
 * time: seq order is commit order, without gaps. `pg_notify` in the same transaction is delivered
 * at commit.
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
    try {
      await this.#options.transact(async (client) => {
        deleted.clear();
        const changed = new Set<string>();
        for (const run of runsOf(batch)) {
          for (const id of await applyRun(client, run, deleted)) changed.add(id);
        }
        head = changed.size === 0 ? 0 : await logChanges(client, [...changed]);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const pending of batch) pending.resolve(deleted.get(pending) ?? 0);
    if (head > 0) this.#options.onCommit?.(head);
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

// The \`tenant\` column mirrors the metadata key \`tenant\` (absent: 'default'; issue 23), so
// rows can be counted or selected by tenant in SQL; the metadata stays the record's whole truth.
const UPSERT = `
  INSERT INTO memsvc_memories AS m (id, document, metadata, vector, tenant)
  SELECT u.id, u.document, u.metadata, u.vector, COALESCE(u.metadata->>'tenant', 'default')
  FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::bytea[]) AS u(id, document, metadata, vector)
  ON CONFLICT (id) DO UPDATE SET
    document = EXCLUDED.document,
    vector = EXCLUDED.vector,
    metadata = m.metadata || EXCLUDED.metadata,
    tenant = COALESCE((m.metadata || EXCLUDED.metadata)->>'tenant', 'default')`;

const UPDATE = `
  UPDATE memsvc_memories AS m SET metadata = m.metadata || u.metadata
  FROM unnest($1::text[], $2::jsonb[]) AS u(id, metadata)
  WHERE m.id = u.id
  RETURNING m.id`;

const DELETE = `DELETE FROM memsvc_memories WHERE id = ANY($1::text[]) RETURNING id`;

/** Applies one run of writes; returns the ids it changed and records each delete's count. */
async function applyRun(
  client: pg.ClientBase,
  run: readonly Pending[],
  deleted: Map<Pending, number>,
): Promise<string[]> {
  const [merged] = mergeWrites(run.map((p) => p.write));
  if (merged === undefined) return [];
  switch (merged.op) {
    case "upsert": {
      const { records } = merged;
      await client.query(UPSERT, [
        records.map((r) => r.id),
        records.map((r) => r.document),
        records.map((r) => JSON.stringify(r.metadata)),
        records.map((r) => encodeVector(r.vector)),
      ]);
      return records.map((r) => r.id);
    }
    case "update": {
      const { rows } = await client.query<{ id: string }>(UPDATE, [
        merged.updates.map((u) => u.id),
        merged.updates.map((u) => JSON.stringify(u.metadata)),
      ]);
      return rows.map((r) => r.id);
    }
    case "delete": {
      const { rows } = await client.query<{ id: string }>(DELETE, [merged.ids]);
      // One delete after another: an id counts for the first write that names it.
      const existed = new Set(rows.map((r) => r.id));
      for (const pending of run) {
        if (pending.write.op !== "delete") continue;
        let count = 0;
        for (const id of new Set(pending.write.ids)) {
          if (existed.delete(id)) count += 1;
        }
        deleted.set(pending, count);
      }
      return rows.map((r) => r.id);
    }
  }
}

const LOG_CHANGES = `
  WITH head AS (
    UPDATE memsvc_change_head SET seq = seq + cardinality($1::text[]) RETURNING seq
  ), logged AS (
    INSERT INTO memsvc_changes (seq, id)
    SELECT head.seq - cardinality($1::text[]) + u.n, u.id
    FROM head, unnest($1::text[]) WITH ORDINALITY AS u(id, n)
  )
  SELECT seq::text AS seq, pg_notify('${CHANGES_CHANNEL}', seq::text) FROM head`;

/** Logs the changed ids under the next seqs and notifies; returns the new head. */
async function logChanges(client: pg.ClientBase, ids: readonly string[]): Promise<number> {
  const { rows } = await client.query<{ seq: string }>(LOG_CHANGES, [ids]);
  return Number(rows[0]?.seq ?? 0);
}
