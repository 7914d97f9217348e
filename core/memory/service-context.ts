import { AgentServicesError } from "../errors.js";
import type { Embedder } from "../ports/embedder.js";
import type { NewRecord, VectorStore } from "../ports/vector-store.js";
import type { AccessWriteBehind } from "../storage/access-write-behind.js";
import type { MemoryReadModel } from "./engine/read-model.js";
import type { MemoryScope, MemoryServiceOptions, MemoryType } from "./model/types.js";

/**
 * What the memory use cases (one file each under `use-cases/`, each a function
 * `(context, input) => result`) share with the {@link MemoryService} that runs them: its engine,
 * store, embedder, locks, access write-behind and clock. The service builds one and passes it;
 * the write gate stays in the service, which wraps every write use case in it.
 *
 * @example
 * const page = listMemories(this.#context, input);
 */
export interface ServiceContext {
  readonly engine: MemoryReadModel;
  readonly store: VectorStore;
  readonly embedder: Embedder;
  readonly lock: ServiceLocks;
  /** Recall's access counts, persisted behind the answer. */
  readonly accesses: AccessWriteBehind;
  readonly options: MemoryServiceOptions;
  /** The clock's instant in epoch ms. */
  nowMs(): number;
  newId(): string;
  /** SHA-256 (hex) of the normalised content: the duplicate key (`contentHash`). */
  contentHash(content: string): string;
  /** Of `ids`, those another tenant's memory holds (import gives such a line a new id). */
  readonly idsTakenElsewhere?:
    ((ids: readonly string[]) => Promise<ReadonlySet<string>>) | undefined;
  /** Replica mode on a store with `insertNew`: remembers of new content skip the cluster lock. */
  readonly optimistic?: OptimisticInserts | undefined;
}

/**
 * How a replica stores new memories without a cluster-lock round trip: it looks for a duplicate
 * in its own engine, which holds every change up to `seen()`, and lets the store insert only
 * what nobody can have written meanwhile (`VectorStore.insertNew`); the rest takes the lock.
 */
export interface OptimisticInserts {
  /**
   * Turns per content key within this process: the attempt and the locked retry of one key
   * never overlap with another remember of the same key here.
   */
  readonly local: ServiceLocks;
  /** The change-feed seq up to which the engine holds every change. */
  seen(): number;
  /** The store's `insertNew`. */
  insertNew(items: readonly NewRecord[]): Promise<ReadonlySet<string>>;
}

/**
 * Exclusive sections per key: `KeyedLock` in one process (owner mode); in replica mode a cluster
 * lock that also brings the engine up to date once held.
 */
export interface ServiceLocks {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
  runAll<T>(keys: readonly string[], task: () => Promise<T>): Promise<T>;
}

/**
 * The lock key of a content key: "find a duplicate, else insert" takes turns per key.
 *
 * @example
 * await lock.run(rememberLockKey(body, hash), insertUnlessDuplicate);
 */
export function rememberLockKey(
  body: { readonly type: MemoryType; readonly scope: MemoryScope; readonly project: string },
  hash: string,
): string {
  return ["remember", hash, body.type, body.scope, body.project].join("\u0000");
}

/**
 * The lock key of one memory: merges into it, its updates and its deletion take turns.
 *
 * @example
 * await lock.run(idLockKey(id), deleteIt);
 */
export function idLockKey(id: string): string {
  return `id\u0000${id}`;
}

/**
 * The error of an unknown or expired memory id.
 *
 * @example
 * if (memory === undefined) throw memoryNotFound(id);
 */
export function memoryNotFound(id: string): AgentServicesError {
  return new AgentServicesError("not_found", `memory ${id} not found`);
}
