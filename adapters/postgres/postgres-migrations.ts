import type pg from "pg";
import { AgentServicesError } from "../../core/errors.js";
import { advisoryKey } from "./postgres-keys.js";

/** One step of the schema: applied once, in order, inside one transaction with its record. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** What {@link migrateSchema} did. */
export interface MigrationResult {
  /** The versions applied by this call, in order (empty: the schema was current). */
  readonly applied: readonly number[];
  /** The schema version now. */
  readonly version: number;
}

/**
 * The schema, as numbered steps. Never edit a released step: add the next one.
 *
 * 1. `memsvc_memories` (one row per record: id, tenant, document, metadata as jsonb, the vector
 *    as float32 little-endian bytea), the change log (`memsvc_change_head`, one row holding the
 *    last seq, and `memsvc_changes`, one row per changed id and seq), the bound vector space
 *    (`memsvc_vector_space`, one row) and the leases of `claimTurn` (`memsvc_leases`).
 * 3. `memsvc_api_keys`: the tenants' API keys (issue 23), one row per key, the secret only as a
 *    salted scrypt hash. (Version 2 is the tenant's column of the change log.)
 * 4. `memsvc_memories.write_order`: the order records were first written in (an update keeps it),
 *    which a scan reads by, so a load from the store keeps the memories' writing order (their
 *    store neighbours, issue 22). Rows written before it are numbered in no particular order.
 * 5. `memsvc_insert_new(items, vectors, keys, seens, matches)`: the store's `insertNew` (a remember without a lock round
 *    trip, issue 21). A function so that its check reads with a snapshot taken after its keys
 *    were locked: a statement's own snapshot is taken before.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "memories, change log, vector space, leases",
    sql: `
      CREATE TABLE memsvc_memories (
        id text COLLATE "C" PRIMARY KEY,
        tenant text NOT NULL DEFAULT 'default',
        document text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        vector bytea NOT NULL
      );
      CREATE TABLE memsvc_change_head (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        seq bigint NOT NULL
      );
      INSERT INTO memsvc_change_head (singleton, seq) VALUES (true, 0);
      CREATE TABLE memsvc_changes (
        seq bigint PRIMARY KEY,
        id text COLLATE "C" NOT NULL,
        committed_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE memsvc_vector_space (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        embedder_id text NOT NULL,
        dimensions integer NOT NULL CHECK (dimensions > 0)
      );
      CREATE TABLE memsvc_leases (
        name text PRIMARY KEY,
        last_run timestamptz NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: "API keys",
    sql: `
      CREATE TABLE memsvc_api_keys (
        id text COLLATE "C" PRIMARY KEY,
        tenant text NOT NULL,
        read_only boolean NOT NULL,
        expires_at timestamptz,
        created_at timestamptz NOT NULL,
        secret_hash text NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: "writing order of memories",
    sql: `
      ALTER TABLE memsvc_memories ADD COLUMN write_order bigserial;
      CREATE UNIQUE INDEX memsvc_memories_write_order ON memsvc_memories (write_order);
    `,
  },
  {
    version: 5,
    name: "insert new records without a lock round trip",
    sql: `
      CREATE FUNCTION memsvc_insert_new(
        items jsonb, vectors bytea, keys bigint[], seens bigint[], matches jsonb)
      RETURNS TABLE (out_seq bigint, out_total integer, out_ids text[])
      LANGUAGE plpgsql VOLATILE AS $fn$
      DECLARE
        skip bigint[];
        since bigint := (SELECT min(s) FROM unnest(seens) AS s);
        head_now bigint := (SELECT seq FROM memsvc_change_head);
      BEGIN
        -- Far behind the head (a replica catching up), the check would read too much: lock.
        IF head_now - since > 10000 THEN
          RETURN NEXT;
          RETURN;
        END IF;
        -- Each item's key (distinct per call) without waiting: a key held elsewhere skips it.
        SELECT coalesce(array_agg(n), '{}') INTO skip
        FROM unnest(keys) WITH ORDINALITY AS u(k, n) WHERE NOT pg_try_advisory_xact_lock(k);
        -- Each statement from here takes a new snapshot, after the keys were locked: whoever
        -- held one of them before has committed, and what it wrote is read. An item whose like
        -- (metadata containing its match) changed after the seq its caller had seen is skipped.
        head_now := (SELECT seq FROM memsvc_change_head);
        IF head_now > since THEN
          SELECT skip || coalesce(array_agg(DISTINCT s.n), '{}') INTO skip
          FROM (
            -- The few changes after the least seen seq, read once (by the index), with their
            -- records by id.
            SELECT c.seq, r.metadata FROM memsvc_changes c JOIN memsvc_memories r ON r.id = c.id
            WHERE c.seq > since AND c.seq <= head_now
          ) AS recent
          JOIN (
            SELECT s.seen, m.match, s.n
            FROM unnest(seens) WITH ORDINALITY AS s(seen, n)
            JOIN jsonb_array_elements(matches) WITH ORDINALITY AS m(match, n) ON m.n = s.n
          ) AS s ON recent.seq > s.seen AND recent.metadata @> s.match;
        END IF;
        WITH input AS (
          SELECT r->>0 AS id, r->>1 AS document, r->2 AS metadata, (r->>3)::int AS start,
            (r->>4)::int AS length, ord
          FROM jsonb_array_elements(items) WITH ORDINALITY AS e(r, ord)
          WHERE NOT (ord = ANY (skip))
        ), written AS (
          INSERT INTO memsvc_memories AS m (id, document, metadata, vector, tenant)
          SELECT u.id, u.document, u.metadata, substring(vectors FROM u.start FOR u.length),
            COALESCE(u.metadata->>'tenant', 'default')
          FROM input u
          ORDER BY u.ord
          RETURNING m.id
        ), changed AS (
          SELECT w.id, row_number() OVER (ORDER BY u.ord) AS n, count(*) OVER () AS total
          FROM written w JOIN input u ON u.id = w.id
        ), head AS (
          UPDATE memsvc_change_head SET seq = seq + (SELECT count(*) FROM written)
          WHERE EXISTS (SELECT 1 FROM written)
          RETURNING seq
        ), logged AS (
          INSERT INTO memsvc_changes (seq, id)
          SELECT head.seq - changed.total + changed.n, changed.id FROM head, changed
        )
        SELECT head.seq, (SELECT count(*) FROM changed)::int,
          (SELECT array_agg(id ORDER BY n) FROM changed)
        INTO out_seq, out_total, out_ids
        FROM head;
        IF out_seq IS NOT NULL THEN
          PERFORM pg_notify('memsvc_changes', out_seq::text);
        END IF;
        RETURN NEXT;
      END
      $fn$;
    `,
  },
];

/** The schema version this binary knows. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

const LOCK_KEY = advisoryKey("memsvc_schema_migrations");

const CREATE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS memsvc_schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/**
 * Applies the missing migrations in one transaction under a transaction-scoped advisory lock, so
 * two replicas starting at once do not race (the second waits, then finds nothing to do). Throws
 * `config_invalid` when the database's schema is newer than this binary knows.
 *
 * @example
 * const client = await pool.connect();
 * try { await migrateSchema(client, "db:5432"); } finally { client.release(); }
 */
export async function migrateSchema(
  client: pg.ClientBase,
  target: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationResult> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ version: number }>(
      "SELECT version FROM memsvc_schema_migrations ORDER BY version",
    );
    const done = new Set(rows.map((r) => r.version));
    const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
    const newest = rows.reduce((max, r) => Math.max(max, r.version), 0);
    if (newest > known) throw newerSchema(target, newest, known);
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO memsvc_schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return { applied, version: Math.max(newest, ...applied) };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * The database's schema version (0: never migrated), checked against this binary: throws
 * `config_invalid` when it is newer than the binary knows, or older when `requireCurrent`.
 *
 * @example
 * await checkSchema(pool, "db:5432", { requireCurrent: true }); // before serving without migrating
 */
export async function checkSchema(
  client: pg.ClientBase | pg.Pool,
  target: string,
  options: { requireCurrent?: boolean; known?: number } = {},
): Promise<number> {
  const known = options.known ?? SCHEMA_VERSION;
  const exists = await client.query<{ table: string | null }>(
    "SELECT to_regclass('memsvc_schema_migrations')::text AS table",
  );
  let version = 0;
  if (exists.rows[0]?.table != null) {
    const { rows } = await client.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM memsvc_schema_migrations",
    );
    version = rows[0]?.version ?? 0;
  }
  if (version > known) throw newerSchema(target, version, known);
  if (options.requireCurrent === true && version < known) {
    throw new AgentServicesError(
      "config_invalid",
      `vector_store.postgres.url: the schema of PostgreSQL at ${target} is at version ${version}, ` +
        `this memsvc needs ${known}: run \`memsvc migrate\` (or start memsvc, which migrates)`,
    );
  }
  return version;
}

function newerSchema(target: string, version: number, known: number): AgentServicesError {
  return new AgentServicesError(
    "config_invalid",
    `vector_store.postgres.url: the schema of PostgreSQL at ${target} is at version ${version}, ` +
      `newer than this memsvc knows (${known}): upgrade memsvc, or point it at another database`,
  );
}
