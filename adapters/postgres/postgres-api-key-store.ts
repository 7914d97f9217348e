import type { ApiKeyStore, StoredApiKey } from "../../core/ports/api-key-store.js";
import type { PostgresStoreContext } from "./postgres-vector-store.js";

interface KeyRow {
  id: string;
  tenant: string;
  read_only: boolean;
  expires_at: Date | null;
  created_at: Date;
  secret_hash: string;
}

const COLUMNS = "id, tenant, read_only, expires_at, created_at, secret_hash";

/**
 * {@link ApiKeyStore} in the `memsvc_api_keys` table (schema migration 3), shared by every
 * replica on the database: a key created or revoked through one replica is seen by the others
 * at their next read of it (the shell's verified cache bounds how late; docs/tenants.md).
 *
 * @example
 * const postgres = await connectPostgres(url);
 * await postgres.migrate();
 * await postgres.keys.add(record);
 */
export class PostgresApiKeyStore implements ApiKeyStore {
  readonly #query: PostgresStoreContext["query"];

  constructor(context: Pick<PostgresStoreContext, "query">) {
    this.#query = context.query;
  }

  async add(key: StoredApiKey): Promise<void> {
    await this.#query(
      "store an API key",
      `INSERT INTO memsvc_api_keys (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`,
      [key.id, key.tenant, key.readOnly, key.expiresAt ?? null, key.createdAt, key.secretHash],
    );
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const { rows } = await this.#query<KeyRow>(
      "read an API key",
      `SELECT ${COLUMNS} FROM memsvc_api_keys WHERE id = $1`,
      [id],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  async list(): Promise<StoredApiKey[]> {
    const { rows } = await this.#query<KeyRow>(
      "list API keys",
      `SELECT ${COLUMNS} FROM memsvc_api_keys ORDER BY created_at, id`,
      [],
    );
    return rows.map(fromRow);
  }

  async remove(id: string): Promise<boolean> {
    const { rowCount } = await this.#query(
      "revoke an API key",
      "DELETE FROM memsvc_api_keys WHERE id = $1",
      [id],
    );
    return (rowCount ?? 0) > 0;
  }
}

function fromRow(row: KeyRow): StoredApiKey {
  return {
    id: row.id,
    tenant: row.tenant,
    readOnly: row.read_only,
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at.toISOString() }),
    createdAt: row.created_at.toISOString(),
    secretHash: row.secret_hash,
  };
}
