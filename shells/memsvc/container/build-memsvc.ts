import { setTimeout as delay } from "node:timers/promises";
import { join } from "node:path";
import { container as rootContainer, instanceCachingFactory, type InjectionToken } from "tsyringe";
import { MemoryService } from "../../../core/memory/index.js";
import {
  JournaledVectorStore,
  type WriteRefusal,
} from "../../../core/storage/journaled-vector-store.js";
import type { Clock } from "../../../core/ports/clock.js";
import type { Embedder } from "../../../core/ports/embedder.js";
import type { VectorStore } from "../../../core/ports/vector-store.js";
import { ChromaVectorQuery, ChromaVectorStore } from "../../../adapters/chroma/index.js";
import {
  startSupervisedChroma,
  type ChromaEvent,
  type SupervisedChroma,
} from "../../../adapters/chroma/chroma-supervisor.js";
import { FileEngineSnapshots, SystemClock } from "../../../adapters/system/index.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import { makeEmbedder } from "./make-embedder.js";
import type { Logger } from "../../common/logger.js";
import { lockDataDirectory, type DataDirectoryLock } from "./data-directory-lock.js";
import { assertStoreBesideSnapshot } from "./data-directory-check.js";
import { createReadinessCheck } from "./readiness-check.js";
import type { ServiceMetrics } from "../../common/service-metrics.js";
import { timeCalls } from "./time-calls.js";
import { journaledStore } from "./journaled-store.js";

/** Where the vector store lives, resolved before the container is built (Chroma starts async). */
interface StoreLocation {
  /** Chroma base URL (the embedded server's or the configured one). */
  readonly url: string;
  /** For the startup line: `embedded Chroma at <path>` or `Chroma at <url>`. */
  readonly description: string;
}

/**
 * The typed tokens of the composition root, private to this module: tsyringe is not seen
 * outside it (issue 9: the container is one module's business, handlers and the CLI get built
 * services). Symbols, so two registrations can never collide by name; typed, so
 * `container.resolve(TOKENS.memory)` is a `MemoryService`.
 */
const TOKENS = {
  config: Symbol("MemsvcConfig") as InjectionToken<MemsvcConfig>,
  logger: Symbol("Logger") as InjectionToken<Logger>,
  storeLocation: Symbol("StoreLocation") as InjectionToken<StoreLocation>,
  clock: Symbol("Clock") as InjectionToken<Clock>,
  embedder: Symbol("Embedder") as InjectionToken<Embedder>,
  vectorStore: Symbol("VectorStore") as InjectionToken<VectorStore>,
  memory: Symbol("MemoryService") as InjectionToken<MemoryService>,
} as const;

/** The built service and what the CLI needs around it. */
export interface MemsvcRuntime {
  readonly memory: MemoryService;
  /** Backs `GET /readyz`. */
  readonly readiness: () => Promise<void>;
  /** `embedded Chroma at /data/chroma` or `Chroma at http://host:8000`. */
  readonly storeDescription: string;
  /** `local-glove-sif-v1:100 (100 dimensions)` or `cohere:embed-v4.0 (1024 dimensions)`. */
  readonly embedderDescription: string;
  /** Ids acknowledged from the write journal and not yet in Chroma (0 without a journal). */
  readonly pendingWrites: () => number;
  /** Why writes are refused now (a full disk, a store that does not take them), if they are. */
  readonly writeRefusal: () => WriteRefusal | undefined;
  /** Closes the store and stops the embedded Chroma. Idempotent. */
  close(): Promise<void>;
}

interface LocatedStore {
  readonly location: StoreLocation;
  readonly chroma: SupervisedChroma | undefined;
  readonly lock: DataDirectoryLock | undefined;
}

async function locateStore(config: MemsvcConfig, logger: Logger): Promise<LocatedStore> {
  const store = config.vectorStore;
  if (store.kind === "chroma-url") {
    const origin = new URL(store.url).origin;
    return {
      location: { url: store.url, description: `Chroma at ${origin}` },
      chroma: undefined,
      lock: undefined,
    };
  }
  // Before Chroma starts: a second service on these files must fail here, not share them.
  const lock = lockDataDirectory(store.path);
  try {
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
      location: { url: chroma.url, description: `embedded Chroma at ${store.path}` },
      chroma,
      lock,
    };
  } catch (error) {
    lock.release();
    throw error;
  }
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

/**
 * The memsvc composition root: starts the embedded Chroma (unless a Chroma URL is configured),
 * registers config, logger, clock, embedder, vector store and memory service in a child tsyringe
 * container (by factory, one instance each), resolves the service, binds the store to the
 * embedder's vector space and loads every memory into the service's engine (progress logged). On any failure it releases what it started and rethrows, so a wrong
 * embedder for the data directory is a startup error naming both embedders.
 *
 * @example
 * const runtime = await buildMemsvc(config, logger);
 * const app = createMemoryApp({ memory: runtime.memory, readiness: runtime.readiness, version });
 * // … on shutdown:
 * await runtime.close();
 */
export async function buildMemsvc(
  config: MemsvcConfig,
  logger: Logger,
  metrics?: ServiceMetrics,
): Promise<MemsvcRuntime> {
  const { location, chroma, lock } = await locateStore(config, logger);
  // The engine snapshot lives in the embedded store's data directory (none with a Chroma URL).
  const snapshots =
    config.vectorStore.kind === "chroma-url"
      ? undefined
      : new FileEngineSnapshots(join(config.vectorStore.path, ENGINE_SNAPSHOT_FILE), {
          warn: (message) => logger.warn(message),
        });
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.config, { useValue: config });
  container.register(TOKENS.logger, { useValue: logger });
  container.register(TOKENS.storeLocation, { useValue: location satisfies StoreLocation });
  container.register(TOKENS.clock, { useFactory: instanceCachingFactory(() => new SystemClock()) });
  container.register(TOKENS.embedder, {
    useFactory: instanceCachingFactory((c) =>
      timeCalls(makeEmbedder(c.resolve(TOKENS.config).embedder), "embedder", metrics),
    ),
  });
  container.register(TOKENS.vectorStore, {
    useFactory: instanceCachingFactory((c) => {
      const chromaStore = timeCalls(
        new ChromaVectorStore({
          url: c.resolve(TOKENS.storeLocation).url,
          collection: c.resolve(TOKENS.config).vectorStore.collection,
        }),
        "vector_store",
        metrics,
      );
      // The owner of an embedded store acknowledges writes from its journal; replicas (and a
      // Chroma URL, which has no data directory here) write to Chroma directly.
      const { vectorStore, memoryMode } = c.resolve(TOKENS.config);
      return vectorStore.kind === "chroma-url" || memoryMode === "replica"
        ? chromaStore
        : journaledStore(chromaStore, vectorStore.path, logger);
    }),
  });
  container.register(TOKENS.memory, {
    useFactory: instanceCachingFactory(
      (c) =>
        new MemoryService({
          store: c.resolve(TOKENS.vectorStore),
          embedder: c.resolve(TOKENS.embedder),
          clock: c.resolve(TOKENS.clock),
          options: {
            ...c.resolve(TOKENS.config).memory,
            // The core reports what it survives (a failed access update) but cannot log.
            onWarning: (message, cause) => logger.warn(message, { error: String(cause) }),
          },
          // Recall's access counts reach the store at most this late (and a crash loses at most
          // this much of them); every recall in the interval shares one write.
          accessWriteDelay: () => delay(ACCESS_WRITE_INTERVAL_MS, undefined, { ref: false }),
          ...(snapshots === undefined ? {} : { snapshots }),
          ...(c.resolve(TOKENS.config).memoryMode === "replica"
            ? {
                replicaQuery: new ChromaVectorQuery({
                  url: c.resolve(TOKENS.storeLocation).url,
                  collection: c.resolve(TOKENS.config).vectorStore.collection,
                }),
              }
            : {}),
        }),
    ),
  });

  const store = container.resolve(TOKENS.vectorStore);
  let memoryBuilt: MemoryService | undefined;
  let loaded = false;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      // Recall writes access metadata behind its answer: land those writes before the store
      // goes, then (after a complete load only) save the engine for the next start.
      if (memoryBuilt !== undefined) await closeMemory(memoryBuilt, loaded, logger);
      await store
        .close()
        .catch((error: unknown) =>
          logger.warn("closing the store failed", { error: String(error) }),
        );
      await stopChroma(chroma, logger);
      lock?.release();
    })());
  try {
    const memory = container.resolve(TOKENS.memory);
    memoryBuilt = memory;
    const started = performance.now();
    let lastLogged = started;
    const memories = await memory.init(({ loaded, total }) => {
      const now = performance.now();
      if (now - lastLogged < LOAD_LOG_INTERVAL_MS) return;
      lastLogged = now;
      logger.info("loading memories", { loaded, total });
    });
    loaded = true;
    if (config.memoryMode === "replica") {
      logger.info("replica mode: every read queries Chroma, nothing loaded");
    } else {
      logger.info("memories loaded", {
        memories,
        from: memory.loadedFrom,
        ms: Math.round(performance.now() - started),
      });
    }
    const embedder = container.resolve(TOKENS.embedder);
    return {
      memory,
      readiness: createReadinessCheck({
        store,
        embedder,
        ...(chroma === undefined ? {} : { storeDown: () => !chroma.up }),
        writeRefusal: () => (store instanceof JournaledVectorStore ? store.refusal : undefined),
      }),
      storeDescription: location.description,
      pendingWrites: () => (store instanceof JournaledVectorStore ? store.pendingIds : 0),
      writeRefusal: () => (store instanceof JournaledVectorStore ? store.refusal : undefined),
      embedderDescription: `${embedder.id} (${embedder.dimensions} dimensions)`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * At shutdown: lands recall's pending access writes and, when the startup load completed, saves
 * the engine snapshot (a failure only costs the next start a full load from the store).
 */
async function closeMemory(memory: MemoryService, loaded: boolean, logger: Logger): Promise<void> {
  try {
    if (!loaded) {
      await memory.flushAccessUpdates();
      return;
    }
    const started = performance.now();
    if (await memory.saveSnapshot()) {
      logger.info("engine snapshot saved", {
        memories: memory.loadedMemories,
        ms: Math.round(performance.now() - started),
      });
    }
  } catch (error) {
    logger.warn("saving the engine snapshot failed; the next start reads the whole store", {
      error: String(error),
    });
  }
}

/** The engine snapshot's file in the embedded store's data directory. */
const ENGINE_SNAPSHOT_FILE = "engine.snapshot";
/** How long recall's access counts may wait to be written (see docs/memory-model.md). */
const ACCESS_WRITE_INTERVAL_MS = 5_000;
/** Progress of the startup load is logged at most this often. */
const LOAD_LOG_INTERVAL_MS = 2_000;

async function stopChroma(chroma: SupervisedChroma | undefined, logger: Logger): Promise<void> {
  if (chroma === undefined) return;
  await chroma.stop();
  logger.info("embedded Chroma stopped", { pid: chroma.pid });
}
