import { setTimeout as delay } from "node:timers/promises";
import { join } from "node:path";
import { container as rootContainer, instanceCachingFactory, type InjectionToken } from "tsyringe";
import { MemoryService, type MemoryApi } from "../../../core/memory/index.js";
import {
  DEFAULT_TENANT,
  TenantMemoryApi,
  TenantSpace,
  type Caller,
  type TenantParts,
} from "../../../core/tenancy/index.js";
import {
  JournaledVectorStore,
  type WriteRefusal,
} from "../../../core/storage/journaled-vector-store.js";
import type { Clock } from "../../../core/ports/clock.js";
import type { Embedder } from "../../../core/ports/embedder.js";
import type { VectorStore } from "../../../core/ports/vector-store.js";
import { ChromaVectorStore } from "../../../adapters/chroma/index.js";
import { SCHEMA_VERSION } from "../../../adapters/postgres/index.js";
import {
  FileApiKeyStore,
  FileEngineSnapshots,
  FileReplicaSnapshots,
  NodeTextHasher,
  SystemClock,
} from "../../../adapters/system/index.js";
import type { ApiKeyStore } from "../../../core/ports/api-key-store.js";
import type { MemsvcConfig } from "../config/memsvc-config.js";
import { makeEmbedder } from "./make-embedder.js";
import type { Logger } from "../../common/logger.js";
import { fileErrorReason } from "../../common/file-error.js";
import { createReadinessCheck } from "./readiness-check.js";
import type { ServiceMetrics } from "../../common/service-metrics.js";
import { timeCalls } from "./time-calls.js";
import { journaledStore } from "./journaled-store.js";
import { API_KEYS_FILE, ENGINE_SNAPSHOT_FILE, openStore, type OpenedStore } from "./open-store.js";
import type { FollowerEvent } from "../../../core/storage/change-follower-deps.js";

/**
 * The typed tokens of the composition root, private to this module: tsyringe is not seen
 * outside it (issue 9: the container is one module's business, handlers and the CLI get built
 * services). Symbols, so two registrations can never collide by name; typed, so
 * `container.resolve(TOKENS.memory)` is a `MemoryService`.
 */
const TOKENS = {
  config: Symbol("MemsvcConfig") as InjectionToken<MemsvcConfig>,
  logger: Symbol("Logger") as InjectionToken<Logger>,
  opened: Symbol("OpenedStore") as InjectionToken<OpenedStore>,
  clock: Symbol("Clock") as InjectionToken<Clock>,
  embedder: Symbol("Embedder") as InjectionToken<Embedder>,
  vectorStore: Symbol("VectorStore") as InjectionToken<VectorStore>,
  tenants: Symbol("TenantSpace") as InjectionToken<TenantSpace>,
} as const;

/** The built service and what the CLI needs around it. */
export interface MemsvcRuntime {
  /** The memory use cases as the operator on the default tenant (the sweep, library use). */
  readonly memory: MemoryApi;
  /** Every tenant's service (counts, `/v1/tenants`, metrics). */
  readonly tenants: TenantSpace;
  /**
   * The memory use cases as one caller, inside its tenant (issue 23): what each HTTP request acts
   * on, with its principal (`createMemoryApp`'s `memory`), and stdio MCP (the operator on
   * `mcp.tenant`). One kept view per tenant and mode (`TenantMemoryApi.as`).
   */
  memoryAs(caller: Caller): MemoryApi;
  /** Backs `GET /readyz`. */
  readonly readiness: () => Promise<void>;
  /** `embedded Chroma at /data/chroma` or `Chroma at http://host:8000`. */
  readonly storeDescription: string;
  /** `local-glove-sif-v1:100 (100 dimensions)` or `cohere:embed-v4.0 (1024 dimensions)`. */
  readonly embedderDescription: string;
  /** Ids acknowledged from the write journal and not yet in Chroma (0 without a journal). */
  readonly pendingWrites: () => number;
  /**
   * Whether this process runs the periodic work that must run once per cluster now (the expiry
   * sweep): always true for a store one service owns; on PostgreSQL, one replica per interval.
   */
  readonly claimTurn: (name: string, intervalMs: number) => Promise<boolean>;
  /** Embeds one probe text (the startup check; `/readyz` keeps its own cache). */
  readonly probeEmbedder: () => Promise<void>;
  /**
   * Where the tenants' API keys live: a file in the embedded store's data directory, or the
   * PostgreSQL store's table; none with an external Chroma server (no data directory here).
   */
  readonly apiKeys: ApiKeyStore | undefined;
  /** Why writes are refused now (a full disk, a store that does not take them), if they are. */
  readonly writeRefusal: () => WriteRefusal | undefined;
  /** Closes the store and stops the embedded Chroma. Idempotent. */
  close(): Promise<void>;
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
  /** Told the store before the load starts, to report a journal replay's progress early. */
  onStore?: (store: VectorStore) => void,
): Promise<MemsvcRuntime> {
  const opened = await openStore(config, logger);
  // The engine snapshot lives in the embedded store's data directory (none elsewhere).
  const snapshots =
    config.vectorStore.kind === "chroma-embedded"
      ? new FileEngineSnapshots(join(config.vectorStore.path, ENGINE_SNAPSHOT_FILE), {
          warn: (message) => logger.warn(message),
        })
      : undefined;
  // A replica's engines are saved where the operator says (vector_store.postgres.snapshot_dir).
  const replicaSnapshots =
    config.vectorStore.kind === "postgres" && config.vectorStore.snapshotDir !== undefined
      ? new FileReplicaSnapshots(config.vectorStore.snapshotDir, {
          storeId: `postgres schema ${SCHEMA_VERSION}`,
          warn: (message) => logger.warn(message),
        })
      : undefined;
  const unwritable = await replicaSnapshots?.unwritable();
  if (unwritable !== undefined && config.vectorStore.kind === "postgres") {
    logger.warn(
      "the engine snapshot directory is not writable: this replica will not save its engines " +
        "at shutdown, and later starts read the whole store (or an older snapshot)",
      { snapshot_dir: config.vectorStore.snapshotDir, error: fileErrorReason(unwritable) },
    );
  }
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.config, { useValue: config });
  container.register(TOKENS.logger, { useValue: logger });
  container.register(TOKENS.opened, { useValue: opened });
  container.register(TOKENS.clock, { useFactory: instanceCachingFactory(() => new SystemClock()) });
  container.register(TOKENS.embedder, {
    useFactory: instanceCachingFactory((c) =>
      timeCalls(makeEmbedder(c.resolve(TOKENS.config).embedder), "embedder", metrics),
    ),
  });
  container.register(TOKENS.vectorStore, {
    useFactory: instanceCachingFactory((c) => {
      const store = c.resolve(TOKENS.opened);
      if (store.kind === "postgres") {
        // PostgreSQL acknowledges a write once it has committed it: its WAL is the journal.
        return timeCalls(store.postgres.store, "vector_store", metrics);
      }
      const chromaStore = timeCalls(
        new ChromaVectorStore({
          url: store.url,
          collection: config.vectorStore.kind === "postgres" ? "" : config.vectorStore.collection,
        }),
        "vector_store",
        metrics,
      );
      // The owner of an embedded store acknowledges writes from its journal; a Chroma URL (no
      // data directory here) is written directly.
      const { vectorStore } = c.resolve(TOKENS.config);
      return vectorStore.kind === "chroma-embedded"
        ? journaledStore(chromaStore, vectorStore.path, logger)
        : chromaStore;
    }),
  });
  const newService = (c: { resolve: typeof container.resolve }, parts: TenantParts) =>
    new MemoryService({
      store: parts.store,
      embedder: c.resolve(TOKENS.embedder),
      clock: c.resolve(TOKENS.clock),
      // node:crypto's SHA-256 for the content keys (the core's pure one costs ~11 ms per 1,000).
      hasher: new NodeTextHasher(),
      options: {
        ...c.resolve(TOKENS.config).memory,
        // The core reports what it survives (a failed access update) but cannot log.
        onWarning: (message, cause) =>
          logger.warn(message, { error: String(cause), tenant: parts.tenant }),
      },
      // Recall's access counts reach the store at most this late (and a crash loses at most
      // this much of them); every recall in the interval shares one write.
      accessWriteDelay: () => delay(ACCESS_WRITE_INTERVAL_MS, undefined, { ref: false }),
      idsTakenElsewhere: parts.idsTakenElsewhere,
      ...replicaDeps(c.resolve(TOKENS.opened), parts, logger),
    });
  container.register(TOKENS.tenants, {
    useFactory: instanceCachingFactory((c) => {
      const embedder = c.resolve(TOKENS.embedder);
      const opened = c.resolve(TOKENS.opened);
      return new TenantSpace({
        store: c.resolve(TOKENS.vectorStore),
        space: { embedderId: embedder.id, dimensions: embedder.dimensions },
        create: (parts) => newService(c, parts),
        feed: opened.kind === "postgres" ? opened.replication.feed : undefined,
        snapshots,
        replicaSnapshots,
        warn: (message) => logger.warn(message),
        newId: () => globalThis.crypto.randomUUID(),
      });
    }),
  });

  const store = container.resolve(TOKENS.vectorStore);
  onStore?.(store);
  let memoryBuilt: TenantSpace | undefined;
  let loaded = false;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      // Recall writes access metadata behind its answer: land those writes before the store
      // goes, then (after a complete load only) save the engine for the next start.
      if (memoryBuilt !== undefined) {
        await memoryBuilt.stopFollowers();
        await closeMemory(memoryBuilt, loaded, logger);
      }
      await store
        .close()
        .catch((error: unknown) =>
          logger.warn("closing the store failed", { error: String(error) }),
        );
      await opened
        .close()
        .catch((error: unknown) =>
          logger.warn("closing the store failed", { error: String(error) }),
        );
    })());
  try {
    const tenants = container.resolve(TOKENS.tenants);
    memoryBuilt = tenants;
    const started = performance.now();
    let lastLogged = started;
    const memories = await tenants.init(({ loaded, total }) => {
      const now = performance.now();
      if (now - lastLogged < LOAD_LOG_INTERVAL_MS) return;
      lastLogged = now;
      logger.info("loading memories", { loaded, total });
    });
    loaded = true;
    logger.info("memories loaded", {
      memories,
      from: tenants.loadedFrom,
      ms: Math.round(performance.now() - started),
      tenants: tenants.tenants.length,
      ...feedSeq(tenants),
    });
    const quota = config.tenants.memoryQuota;
    const operator: Caller = { tenant: DEFAULT_TENANT, readOnly: false };
    const memory = new TenantMemoryApi(tenants, { caller: () => operator, memoryQuota: quota });
    const embedder = container.resolve(TOKENS.embedder);
    return {
      memory,
      tenants,
      memoryAs: (caller) => memory.as(caller),
      readiness: createReadinessCheck({
        store,
        embedder,
        storeDown: () => storeDown(opened, tenants),
        writeRefusal: () => (store instanceof JournaledVectorStore ? store.refusal : undefined),
      }),
      storeDescription: opened.description,
      apiKeys: apiKeyStore(config, opened),
      claimTurn: (name, intervalMs) =>
        opened.kind === "postgres"
          ? opened.replication.locks.claimTurn(name, intervalMs)
          : Promise.resolve(true),
      pendingWrites: () => (store instanceof JournaledVectorStore ? store.pendingIds : 0),
      writeRefusal: () => (store instanceof JournaledVectorStore ? store.refusal : undefined),
      embedderDescription: `${embedder.id} (${embedder.dimensions} dimensions)`,
      probeEmbedder: async () => {
        await embedder.embedQuery("startup probe");
      },
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
async function closeMemory(memory: TenantSpace, loaded: boolean, logger: Logger): Promise<void> {
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

/** How long recall's access counts may wait to be written (see docs/memory-model.md). */
const ACCESS_WRITE_INTERVAL_MS = 5_000;
/** Progress of the startup load is logged at most this often. */
const LOAD_LOG_INTERVAL_MS = 2_000;

/**
 * Whether `/readyz` must fail at once: the supervised Chroma is down, or a replica does not
 * follow the shared store (PostgreSQL unreachable or its notifications lost): it may then answer
 * from a stale engine, so orchestrators route around it until it has caught up.
 */
function storeDown(opened: OpenedStore, tenants: TenantSpace): boolean {
  if (opened.kind === "chroma") return opened.chroma !== undefined && !opened.chroma.up;
  return tenants.services.some((service) => service.follower?.healthy !== true);
}

/** Where the API keys live with this store (see `MemsvcRuntime.apiKeys`). */
function apiKeyStore(config: MemsvcConfig, opened: OpenedStore): ApiKeyStore | undefined {
  if (opened.kind === "postgres") return opened.postgres.keys;
  const store = config.vectorStore;
  return store.kind === "chroma-embedded"
    ? new FileApiKeyStore(join(store.path, API_KEYS_FILE))
    : undefined;
}

/** For the startup line on a replica: the feed seq every tenant's follower has reached. */
function feedSeq(tenants: TenantSpace): { feed_seq?: number } {
  const applied = tenants.services.flatMap((s) =>
    s.follower === undefined ? [] : [s.follower.applied],
  );
  return applied.length === 0 ? {} : { feed_seq: Math.min(...applied) };
}

/** The replica dependencies of a tenant's service on a shared store (none for Chroma). */
function replicaDeps(opened: OpenedStore, parts: TenantParts, logger: Logger) {
  if (opened.kind !== "postgres" || parts.feed === undefined) return {};
  return {
    feed: parts.feed,
    locks: opened.replication.locks,
    onFollowerEvent: (event: FollowerEvent) => logFollowerEvent(event, logger),
    // A feed that failed is retried at most a second apart (its listener reconnects too).
    followerRetryDelay: (attempt: number) =>
      delay(Math.min(50 * 2 ** attempt, 1_000), undefined, { ref: false }),
  };
}

function logFollowerEvent(event: FollowerEvent, logger: Logger): void {
  switch (event.kind) {
    case "down":
      logger.error("lost the shared store's change feed; /readyz fails until it is back", {
        error: String(event.error),
      });
      return;
    case "up":
      logger.info("following the shared store's change feed", { feed_seq: event.applied });
      return;
    case "resync":
      logger.warn("reloaded every memory from the shared store", {
        reason: event.reason,
        memories: event.records,
      });
      return;
  }
}
