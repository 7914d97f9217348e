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
