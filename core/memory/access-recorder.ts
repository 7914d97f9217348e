import type { Metadata, VectorStore } from "../ports/vector-store.js";
import type { ExpiryOptions } from "./expiry.js";
import type { KeyedLock } from "./keyed-lock.js";
import { decodeMemory } from "./memory-metadata.js";
import { accessMetadata } from "./metadata-updates.js";
import { memoryIsLive } from "./memory-liveness.js";

/** What an {@link AccessRecorder} writes through. */
export interface AccessRecorderDeps {
  readonly store: VectorStore;
  /** The service's per-id lock, shared with merges and deletes of the same memories. */
  readonly lock: KeyedLock;
  /** The lock key of a memory id (the same one merges and deletes take). */
  readonly lockKey: (id: string) => string;
  readonly options: ExpiryOptions;
  /** Called when an access update fails: it is never the recall's failure. */
  readonly warn: (message: string, cause: unknown) => void;
}

interface PendingAccess {
  count: number;
  lastMs: number;
}

/**
 * Records recall accesses (`access_count + n`, `last_accessed`, session expiry) with group
 * commit: accesses recorded while a write is in flight are merged per id into the next write,
 * so however many recalls run at once there is at most one access write in flight, and each
 * write is one `store.get(ids)` plus one `store.updateMetadata(batch)`.
 *
 * Being the only writer of the access keys in the process is what keeps increments exact: a
 * batch reads the counts after the previous batch was written. It also holds the per-id locks of
 * its ids, so a merge or delete of the same memory never interleaves with it.
 *
 * @example
 * const recorder = new AccessRecorder({ store, lock, lockKey: (id) => `id:${id}`, options, warn });
 * await recorder.record(["00000000-0000-4000-8000-000000000001"], clock.now().getTime());
 */
export class AccessRecorder {
  readonly #deps: AccessRecorderDeps;
  #pending = new Map<string, PendingAccess>();
  /** Resolves once the pending accesses are written (or failed with a warning). */
  #nextWrite: { promise: Promise<void>; resolve: () => void } | undefined;
  #draining: Promise<void> | undefined;

  constructor(deps: AccessRecorderDeps) {
    this.#deps = deps;
  }

  /**
   * Counts one access of each id at `accessedAtMs`. Resolves once the access is in the store or
   * its failure was reported as a warning; never rejects.
   */
  record(ids: readonly string[], accessedAtMs: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    for (const id of ids) {
      const pending = this.#pending.get(id);
      if (pending === undefined) this.#pending.set(id, { count: 1, lastMs: accessedAtMs });
      else {
        pending.count += 1;
        pending.lastMs = Math.max(pending.lastMs, accessedAtMs);
      }
    }
    this.#nextWrite ??= deferred();
    const written = this.#nextWrite.promise;
    this.#draining ??= this.#drain();
    return written;
  }

  /** Resolves once every access recorded so far is written (for shutdown and tests). */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        const batch = this.#pending;
        const done = this.#nextWrite;
        this.#pending = new Map();
        this.#nextWrite = undefined;
        await this.#write(batch);
        done?.resolve();
      }
    } finally {
      this.#draining = undefined;
    }
  }

  async #write(batch: ReadonlyMap<string, PendingAccess>): Promise<void> {
    const ids = [...batch.keys()];
    try {
      await this.#deps.lock.runAll(ids.map(this.#deps.lockKey), async () => {
        const updates: { id: string; metadata: Metadata }[] = [];
        for (const record of await this.#deps.store.get(ids)) {
          const access = batch.get(record.id);
          if (access === undefined) continue;
          let current;
          try {
            current = decodeMemory(record);
          } catch (error) {
            this.#deps.warn(`failed to update access metadata of memory ${record.id}`, error);
            continue;
          }
          // Expired (or swept) since the recall read it: nothing left to count.
          if (!memoryIsLive(current, access.lastMs)) continue;
          updates.push({
            id: record.id,
            metadata: accessMetadata(current, access.lastMs, this.#deps.options, access.count),
          });
        }
        if (updates.length > 0) await this.#deps.store.updateMetadata(updates);
      });
    } catch (error) {
      const what = ids.length === 1 ? `memory ${ids[0]}` : `${ids.length} memories`;
      this.#deps.warn(`failed to update access metadata of ${what}`, error);
    }
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
