import { join } from "node:path";
import {
  startSupervisedChroma,
  type ChromaEvent,
  type SupervisedChroma,
} from "../../../adapters/chroma/chroma-supervisor.js";
import { connectPostgres } from "../../../adapters/postgres/index.js";
import { postgresHostPort } from "../../../adapters/postgres/postgres-connection.js";
import type { ChangeFeed, ClusterLocks } from "../../../core/ports/replication.js";
import type { Logger } from "../../common/logger.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import { lockDataDirectory, type DataDirectoryLock } from "./data-directory-lock.js";
import { assertStoreBesideSnapshot } from "./data-directory-check.js";

/** The engine snapshot's file in the embedded store's data directory. */
export const ENGINE_SNAPSHOT_FILE = "engine.snapshot";

/** The tenants' API keys' file in the embedded store's data directory (hashes, never keys). */
export const API_KEYS_FILE = "api-keys.json";

/** Where the memories live, opened before the container is built (both stores start async). */
export type OpenedStore =
  | {
      readonly kind: "chroma";
      /** Chroma base URL (the embedded server's or the configured one). */
      readonly url: string;
      /** For the startup line: `embedded Chroma at <path>` or `Chroma at <origin>`. */
      readonly description: string;
      /** The embedded server (none with a Chroma URL). */
      readonly chroma: SupervisedChroma | undefined;
      readonly lock: DataDirectoryLock | undefined;
      close(): Promise<void>;
    }
  | {
      readonly kind: "postgres";
      readonly description: string;
      readonly postgres: Awaited<ReturnType<typeof connectPostgres>>;
      /** The feed and locks replicas share (see `MemoryServiceDeps.feed`). */
      readonly replication: { readonly feed: ChangeFeed; readonly locks: ClusterLocks };
      close(): Promise<void>;
    };

/**
 * Opens the configured store: starts the embedded Chroma under its data-directory lock, names an
 * external Chroma, or connects to PostgreSQL and applies its pending schema migrations (under
 * the adapter's migration lock, so replicas starting together do not race). Throws a message an
 * operator can act on (unreachable server, wrong password, schema newer than this binary).
 *
 * @example
 * const opened = await openStore(config, logger);
 * // … on shutdown:
 * await opened.close();
 */
export async function openStore(config: MemsvcConfig, logger: Logger): Promise<OpenedStore> {
  const store = config.vectorStore;
  if (store.kind === "postgres") {
    const postgres = await connectPostgres(store.url, {
      poolSize: store.poolSize,
      lockPoolSize: store.poolSize,
    });
    try {
      const migrated = await postgres.migrate();
      if (migrated.applied.length > 0) {
        logger.info("PostgreSQL schema migrated", {
          applied: migrated.applied.join(","),
          version: migrated.version,
        });
      }
    } catch (error) {
      await postgres.close();
      throw error;
    }
    return {
      kind: "postgres",
      description: `PostgreSQL at ${describePostgresUrl(store.url)}`,
      postgres,
      replication: { feed: postgres.feed, locks: postgres.locks },
      close: () => postgres.close(),
    };
  }
  if (store.kind === "chroma-url") {
    const origin = new URL(store.url).origin;
    return {
      kind: "chroma",
      url: store.url,
      description: `Chroma at ${origin}`,
      chroma: undefined,
      lock: undefined,
      close: () => Promise.resolve(),
    };
  }
  // Before Chroma starts: a second service on these files must fail here, not share them.
  const lock = lockDataDirectory(store.path);
  try {
    // A snapshot with no store beside it is a lost store, never an empty one to start on.
    assertStoreBesideSnapshot(store.path, ENGINE_SNAPSHOT_FILE);
  } catch (error) {
    lock.release();
    throw error;
  }
  const logFile = join(store.path, "chroma.log");
  logger.debug("starting embedded Chroma", { path: store.path, logFile });
  try {
    const chroma = await startSupervisedChroma({
      path: store.path,
      logFile,
      onEvent: (event) => logChromaEvent(event, logger),
    });
    logger.info("embedded Chroma started", { path: store.path, url: chroma.url, pid: chroma.pid });
    return {
      kind: "chroma",
      url: chroma.url,
      description: `embedded Chroma at ${store.path}`,
      chroma,
      lock,
      close: async () => {
        await chroma.stop();
        logger.info("embedded Chroma stopped", { pid: chroma.pid });
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * A PostgreSQL URL for logs and the startup line: host and port as node-postgres reads them
 * ({@link postgresHostPort}) and the database, never the user's password.
 *
 * @example
 * describePostgresUrl("postgres://app:secret@db:5432/memories"); // "db:5432/memories"
 * describePostgresUrl("postgres:///memories?host=/run/postgresql"); // "/run/postgresql:5432/memories"
 */
export function describePostgresUrl(url: string): string {
  const parsed = new URL(url);
  return `${postgresHostPort(parsed)}/${parsed.pathname.replace(/^\//, "") || "postgres"}`;
}

function logChromaEvent(event: ChromaEvent, logger: Logger): void {
  switch (event.kind) {
    case "died":
      logger.error("embedded Chroma died; writes fail until it is restarted", {
        pid: event.pid,
        exit_code: event.exitCode,
      });
      return;
    case "restarting":
      logger.info("restarting embedded Chroma", {
        attempt: event.attempt,
        delay_ms: event.delayMs,
      });
      return;
    case "restart_failed":
      logger.error("restarting embedded Chroma failed", {
        attempt: event.attempt,
        error: String(event.error),
      });
      return;
    case "restarted":
      logger.info("embedded Chroma restarted", { pid: event.pid, down_ms: event.downMs });
      return;
  }
}
