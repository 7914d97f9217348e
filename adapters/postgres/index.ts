/**
 * The PostgreSQL adapter: the memory service's store shared by any number of replicas.
 *
 * `connectPostgres(url, options)` opens one connection object holding the pools and gives:
 * - `store`: a `VectorStore` (`PostgresVectorStore`): writes acknowledged after COMMIT, concurrent
 *   writes grouped into one transaction;
 * - `feed`: a `ChangeFeed` (`PostgresChangeFeed`): every committed change with a gapless seq in
 *   commit order, LISTEN/NOTIFY wake-ups;
 * - `locks`: `ClusterLocks` (`PostgresClusterLocks`): advisory-lock sections and leases;
 * - `keys`: an `ApiKeyStore` (`PostgresApiKeyStore`): the tenants' API keys;
 * - `migrate()` / `schemaVersion()`: the versioned schema (`MIGRATIONS`, `SCHEMA_VERSION`);
 * - `close()`.
 * See docs/postgres-store.md.
 *
 * @example
 * import { connectPostgres } from "agent-services/adapters/postgres";
 * const postgres = await connectPostgres("postgres://memsvc:secret@db:5432/memsvc");
 * await postgres.migrate();
 * await postgres.store.bind({ embedderId: "local-hash-v1:256", dimensions: 256 });
 */
export {
  connectPostgres,
  type PostgresConnection,
  type PostgresConnectionOptions,
} from "./postgres-connection.js";
export { PostgresVectorStore } from "./postgres-vector-store.js";
export { PostgresApiKeyStore } from "./postgres-api-key-store.js";
export { PostgresChangeFeed } from "./postgres-change-feed.js";
export { PostgresClusterLocks } from "./postgres-cluster-locks.js";
export {
  MIGRATIONS,
  SCHEMA_VERSION,
  type Migration,
  type MigrationResult,
} from "./postgres-migrations.js";
