import type { Metadata, StoredRecord, VectorStore } from "../ports/vector-store.js";
import { expiresAtMs, isLive, type ExpiryOptions } from "./expiry.js";
import type { KeyedLock } from "./keyed-lock.js";
import { memoryIsLive, recordIsLive } from "./memory-liveness.js";
import { decodeMemory } from "./memory-metadata.js";
import { accessMetadata } from "./metadata-updates.js";
import type { Memory } from "./types.js";

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
  /**
   * Awaited before each write, so accesses recorded meanwhile join it (default: none). See
   * `MemoryServiceDeps.accessWriteDelay`.
   */
  readonly delay?: () => Promise<void>;
}

interface PendingAccess {
  count: number;
  lastMs: number;
}

/**
 * Records recall accesses (`access_count + n`, `last_accessed`, session expiry) behind the
 * recall, with group commit: accesses recorded while a write is in flight are merged per id into
 * the next write, so however many recalls run at once there is at most one access write in
 * flight, and each write is one `store.get(ids)` plus one `store.updateMetadata(batch)`.
 *
 * Being the only writer of the access keys in the process is what keeps increments exact: a
 * batch reads the counts after the previous batch was written. It also holds the per-id locks of
 * its ids while it reads and writes, so a merge, delete or locked read of the same memory never
 * interleaves with it.
 *
 * Accesses not yet written stay visible in this process through {@link AccessRecorder.overlay}:
 * a reader holding a memory's id lock sees exactly the stored value plus the unwritten accesses
 * (no batch with that id is half-way while it holds the lock).
 *
 * @example
 * const recorder = new AccessRecorder({ store, lock, lockKey: (id) => `id:${id}`, options, warn });
 * void recorder.record(["00000000-0000-4000-8000-000000000001"], clock.now().getTime());
 * const memory = recorder.overlay(decodeMemory(record)); // counts the access already
 */
export class AccessRecorder {
  readonly #deps: AccessRecorderDeps;
  /** Recorded, not yet taken into a write. */
  #pending = new Map<string, PendingAccess>();
  /** Recorded, not yet written (pending ones and those of the write in progress). */
  readonly #unwritten = new Map<string, PendingAccess>();
  /** Resolves once the pending accesses are written (or failed with a warning). */
  #nextWrite: { promise: Promise<void>; resolve: () => void } | undefined;
  #draining: Promise<void> | undefined;

  constructor(deps: AccessRecorderDeps) {
    this.#deps = deps;
  }

  /**
   * Counts one access of each id at `accessedAtMs`. Resolves once the access is in the store or
   * its failure was reported as a warning; never rejects. Callers need not wait: the access is
   * visible through {@link AccessRecorder.overlay} at once.
   */
  record(ids: readonly string[], accessedAtMs: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    for (const id of new Set(ids)) {
      addAccess(this.#pending, id, 1, accessedAtMs);
      addAccess(this.#unwritten, id, 1, accessedAtMs);
    }
    this.#nextWrite ??= deferred();
    const written = this.#nextWrite.promise;
    this.#draining ??= this.#drain();
    return written;
  }

  /**
   * The memory as it will be once its unwritten accesses are written: higher `access_count`,
   * later `last_accessed`, and for a session memory a later expiry. Exact for a reader that holds
   * the memory's id lock; otherwise an access may be counted twice while its write is landing,
   * which is good enough for ranking.
   */
  overlay(memory: Memory): Memory {
    const unwritten = this.#unwritten.get(memory.id);
    if (unwritten === undefined) return memory;
    const lastMs = Math.max(unwritten.lastMs, Date.parse(memory.last_accessed));
    const expires =
      memory.scope === "session"
        ? expiresAtMs(
            {
              scope: "session",
              createdAtMs: Date.parse(memory.created_at),
              lastAccessedMs: lastMs,
            },
            this.#deps.options,
          )
        : null;
    return {
      ...memory,
      access_count: memory.access_count + unwritten.count,
      last_accessed: new Date(lastMs).toISOString(),
      expires_at: expires === null ? memory.expires_at : new Date(expires).toISOString(),
    };
  }

  /**
   * Whether a raw record is live at `nowMs`, counting unwritten accesses that extend a session
   * memory (the store's `expires_at_ms` does not know them yet).
   */
  isLive(record: StoredRecord, nowMs: number): boolean {
    if (recordIsLive(record.metadata, nowMs)) return true;
    const unwritten = this.#unwritten.get(record.id);
    if (unwritten === undefined || record.metadata["scope"] !== "session") return false;
    const expires = expiresAtMs(
      { scope: "session", createdAtMs: 0, lastAccessedMs: unwritten.lastMs },
      this.#deps.options,
    );
    return expires !== null && isLive(expires, nowMs);
  }

  /** Whether `id` has accesses not yet written (the sweep leaves such memories for later). */
  hasUnwritten(id: string): boolean {
    return this.#unwritten.has(id);
  }

  /** Resolves once every access recorded so far is written (for shutdown and tests). */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        if (this.#deps.delay !== undefined) {
          try {
            await this.#deps.delay();
          } catch {
            // A failing delay only means writing sooner.
          }
        }
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
        try {
          await this.#writeLocked(batch);
        } finally {
          // Still inside the locks: a locked reader sees either the write or the overlay.
          for (const [id, access] of batch) removeAccess(this.#unwritten, id, access.count);
        }
      });
    } catch (error) {
      const what = ids.length === 1 ? `memory ${ids[0]}` : `${ids.length} memories`;
      this.#deps.warn(`failed to update access metadata of ${what}`, error);
    }
  }

  async #writeLocked(batch: ReadonlyMap<string, PendingAccess>): Promise<void> {
    const updates: { id: string; metadata: Metadata }[] = [];
    for (const record of await this.#deps.store.get([...batch.keys()])) {
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
  }
}

function addAccess(
  into: Map<string, PendingAccess>,
  id: string,
  count: number,
  lastMs: number,
): void {
  const entry = into.get(id);
  if (entry === undefined) into.set(id, { count, lastMs });
  else {
    entry.count += count;
    entry.lastMs = Math.max(entry.lastMs, lastMs);
  }
}

/** Takes written (or failed) accesses off; `lastMs` stays the maximum, which is never wrong. */
function removeAccess(from: Map<string, PendingAccess>, id: string, count: number): void {
  const entry = from.get(id);
  if (entry === undefined) return;
  entry.count -= count;
  if (entry.count <= 0) from.delete(id);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
