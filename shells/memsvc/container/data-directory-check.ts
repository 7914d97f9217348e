import { existsSync } from "node:fs";
import { join } from "node:path";
import { AgentServicesError } from "../../../core/errors.js";

/** Chroma's database in its persist directory. */
export const CHROMA_DATABASE_FILE = "chroma.sqlite3";

/**
 * Refuses a data directory that holds an engine snapshot but no Chroma database: the store was
 * lost or moved. Started anyway, the service would serve 0 memories and, at shutdown, overwrite
 * the snapshot (then the last copy of the memories) with an empty one. A `config_invalid` error
 * naming both files and what to do.
 *
 * @example
 * assertStoreBesideSnapshot("/data/chroma", "engine.snapshot"); // throws when chroma.sqlite3 is gone
 */
export function assertStoreBesideSnapshot(directory: string, snapshotFile: string): void {
  const snapshot = join(directory, snapshotFile);
  const database = join(directory, CHROMA_DATABASE_FILE);
  if (!existsSync(snapshot) || existsSync(database)) return;
  throw new AgentServicesError(
    "config_invalid",
    `the data directory ${directory} holds an engine snapshot (${snapshotFile}) but no Chroma ` +
      `store (${CHROMA_DATABASE_FILE}): the store was lost or moved. Starting would serve no ` +
      `memories and overwrite the snapshot. Restore ${database} (from a backup), or move ` +
      `${snapshot} away to start with an empty store`,
  );
}
