import type { Clock } from "../ports/clock.js";
import type { Embedder } from "../ports/embedder.js";
import type { TextHasher } from "../ports/text-hasher.js";
import type { EngineSnapshots } from "../ports/engine-snapshots.js";
import type { ChangeFeed, ClusterLocks } from "../ports/replication.js";
import type { VectorStore } from "../ports/vector-store.js";
import type { RetrievalIndex } from "../retrieval/retrieval-index.js";
import type { FollowerEvent } from "../storage/change-follower-deps.js";
import type { MemoryServiceOptions } from "./model/types.js";

/**
 * What a `MemoryService` is built from.
 *
 * @example
 * const deps: MemoryServiceDeps = { store, embedder, clock: new SystemClock() };
 */
export interface MemoryServiceDeps {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** Overrides of `DEFAULT_MEMORY_SERVICE_OPTIONS`; validated by the constructor. */
  readonly options?: Partial<MemoryServiceOptions>;
  /**
   * The retrieval index that ranks memories for recall and search (default: the hybrid index,
   * BM25 fused with cosine, `createHybridIndex()`, whose options set the fusion;
   * `createBm25Index()` ranks by BM25 alone). It must be empty: `init()` fills it from the store.
   */
  readonly index?: RetrievalIndex;
  /**
   * How content is hashed into its duplicate key (default: the core's pure SHA-256,
   * `PURE_TEXT_HASHER`; `NodeTextHasher` from `agent-services/adapters/system` computes the same
   * hashes with `node:crypto`).
   */
  readonly hasher?: TextHasher;
  /** Id generator (default `crypto.randomUUID()`); must return lower-case UUIDs. */
  readonly newId?: () => string;
  /**
   * Awaited before each write of recall accesses (default: none). Recalls answer before their
   * accesses are written, so a delay costs them nothing and merges more accesses into each write;
   * the price is what a crash can lose (the accesses of the last delay). Shutdown cuts it short.
   *
   * @example
   * new MemoryService({ store, embedder, clock, accessWriteDelay: () => sleep(1000) });
   */
  readonly accessWriteDelay?: () => Promise<void>;
  /**
   * Replica mode, on a store several services share (the PostgreSQL adapter, or
   * `InMemorySharedStore` in tests): the store's committed changes, which keep this service's
   * engine equal to the store (`ChangeFollower`), and the locks that hold across every service on
   * it (duplicate merging and read-modify-write stay exact). Both or neither. Absent (the
   * default): owner mode, this service the store's only writer.
   */
  readonly feed?: ChangeFeed;
  readonly locks?: ClusterLocks;
  /** Told what the replica's follower goes through (down, up, a full reload). */
  readonly onFollowerEvent?: (event: FollowerEvent) => void;
  /** Awaited before the follower retries a feed that failed (absent: the next notification or write tries again). */
  readonly followerRetryDelay?: (attempt: number) => Promise<void>;
  /**
   * Where to keep a snapshot of the engine between clean runs (owner mode only: a replica's engines are snapshotted by `TenantSpace`, see `ReplicaSnapshots`): `init()` loads
   * from it when the store still carries its mark, `saveSnapshot()` writes it at shutdown. Absent:
   * every start reads the whole store.
   */
  readonly snapshots?: EngineSnapshots;
  /**
   * Of `ids`, those a memory outside this service's store view holds (another tenant's, issue
   * 23): an import line with such an id gets a new one instead of overwriting it. Absent: none.
   */
  readonly idsTakenElsewhere?: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** What each required dependency must offer: the port's name and the members checked. */
const REQUIRED_DEPS = [
  ["store", "VectorStore", ["bind", "upsert", "get", "updateMetadata", "delete", "scan", "count"]],
  ["embedder", "Embedder", ["embedDocuments", "embedQuery"]],
  ["clock", "Clock", ["now"]],
] as const;

/**
 * The problems of a `MemoryService`'s dependencies as a plain JavaScript caller may pass them
 * (TypeScript catches these at compile time): each missing port, or one without the methods the
 * service calls, named with what was expected, so the constructor fails with one clear
 * `config_invalid` instead of a `TypeError` deep inside `init()` or the first request.
 *
 * @example
 * depsProblems({ store, embedder });
 * // ["clock: expected a Clock (with now), got undefined"]
 */
export function depsProblems(deps: unknown): string[] {
  if (typeof deps !== "object" || deps === null) {
    return [`deps: expected an object with store, embedder and clock, got ${String(deps)}`];
  }
  const problems: string[] = [];
  for (const [name, port, methods] of REQUIRED_DEPS) {
    const value = (deps as Record<string, unknown>)[name];
    const ok =
      typeof value === "object" &&
      value !== null &&
      methods.every((m) => typeof (value as Record<string, unknown>)[m] === "function");
    if (!ok) {
      const got =
        typeof value === "object" && value !== null ? "an object without them" : String(value);
      const article = port === "Embedder" ? "an" : "a";
      problems.push(
        `${name}: expected ${article} ${port} (with ${methods.join(", ")}), got ${got}`,
      );
    }
  }
  return problems;
}
