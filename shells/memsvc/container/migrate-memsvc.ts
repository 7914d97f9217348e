import { connectPostgres } from "../../../adapters/postgres/index.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import { describePostgresUrl } from "./open-store.js";

/** What `memsvc migrate` did. */
export interface MigrateSummary {
  /** `PostgreSQL at db:5432/memories`, or undefined for a store without a schema (Chroma). */
  readonly store: string | undefined;
  /** The migrations applied now, in order (empty: the schema was current). */
  readonly applied: readonly number[];
  /** The schema version after the run. */
  readonly version: number;
}

/**
 * `memsvc migrate`: applies the PostgreSQL store's pending schema migrations and exits, for
 * operators who migrate before rolling out replicas (`memsvc serve` applies them at start too,
 * under the same lock). A Chroma store has no schema: nothing to do.
 *
 * @example
 * const { applied, version } = await migrateMemsvc(config);
 */
export async function migrateMemsvc(config: MemsvcConfig): Promise<MigrateSummary> {
  const store = config.vectorStore;
  if (store.kind !== "postgres") return { store: undefined, applied: [], version: 0 };
  const postgres = await connectPostgres(store.url, { poolSize: 2 });
  try {
    const result = await postgres.migrate();
    return {
      store: `PostgreSQL at ${describePostgresUrl(store.url)}`,
      applied: result.applied,
      version: result.version,
    };
  } finally {
    await postgres.close();
  }
}
