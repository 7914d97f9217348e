import type { Metadata } from "../ports/vector-store.js";

/** One memory's access data to write. */
export interface AccessUpdate {
  readonly id: string;
  /** Its access keys as the engine holds them now. */
  readonly metadata: Metadata;
  /** Accesses counted since the last write of this memory that landed. */
  readonly accesses: number;
}

/** What an {@link AccessWriteBehind} works with. */
export interface AccessWriteBehindDeps {
  /** The metadata to persist for a memory as it is now; `undefined` when it is gone. */
  readonly current: (id: string) => Metadata | undefined;
  /**
   * Writes the updates to the store (one call per round). `accesses` is how many recalls counted
   * the memory since its last write: a store shared by replicas adds them to the stored count
   * instead of writing the engine's.
   */
  readonly write: (updates: AccessUpdate[]) => Promise<void>;
  /** Told about a failed write: it never fails a recall. The ids are retried later. */
  readonly warn: (message: string, cause: unknown) => void;
  /**
   * Awaited before each write, so the accesses of many recalls share one write (default: none).
   * A flush cuts it short.
   */
  readonly delay?: () => Promise<void>;
  /**
   * Most ids per write (default {@link ACCESS_WRITE_MAX_IDS}): a round of more is written in
   * several calls, one after the other, so answers are served between them.
   */
  readonly maxIdsPerWrite?: number;
}

/**
 * Default most ids per access write. Measured at 100,000 memories: a 5 s round of recalls marks
 * ~25,000 ids; written at once, building and journaling their keys held the event loop long
 * enough to show in the recall p95.
 */
export const ACCESS_WRITE_MAX_IDS = 500;

/**
 * Persists access data behind the answer: the engine already counts a recall's accesses, this
 * only remembers which memories changed and writes their current access keys in batches, at most
 * one write in flight. Because it writes the value as it is at write time (not an increment), a
 * batch that lands late or twice is harmless, and ids marked during a write just go into the
 * next one. A failed write keeps its ids for the next round (the next mark or flush).
 *
 * What a crash can lose: the accesses marked since the last write that landed.
 *
 * @example
 * const behind = new AccessWriteBehind({ current, write: (u) => store.updateMetadata(u), warn });
 * behind.mark(["00000000-0000-4000-8000-000000000001"]);
 * await behind.flush(); // at shutdown
 */
export class AccessWriteBehind {
  readonly #deps: AccessWriteBehindDeps;
  /** Ids to write, with the accesses counted since their last write. */
  #pending = new Map<string, number>();
  #draining: Promise<void> | undefined;
  #flushRequested: (() => void) | undefined;
  #flushSignal: Promise<void> | undefined;

  constructor(deps: AccessWriteBehindDeps) {
    this.#deps = deps;
  }

  /** Ids whose access data changed and is not written yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Marks memories whose access data changed; they are written in the next round. */
  mark(ids: readonly string[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.#pending.set(id, (this.#pending.get(id) ?? 0) + 1);
    this.#draining ??= this.#drain(true);
  }

  /** Resolves once everything marked so far was written (or failed with a warning). */
  async flush(): Promise<void> {
    this.#flushRequested?.();
    while (this.#draining !== undefined) await this.#draining;
    if (this.#pending.size > 0) {
      this.#draining = this.#drain(false);
      await this.#draining;
    }
  }

  async #drain(wait: boolean): Promise<void> {
    try {
      if (wait && this.#deps.delay !== undefined) await this.#pause(this.#deps.delay);
      while (this.#pending.size > 0) {
        if (!(await this.#write(this.#take()))) break;
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /** Takes up to the most ids per write out of the pending ones, oldest marks first. */
  #take(): [string, number][] {
    const most = this.#deps.maxIdsPerWrite ?? ACCESS_WRITE_MAX_IDS;
    const taken: [string, number][] = [];
    for (const entry of this.#pending) {
      if (taken.length >= most) break;
      taken.push(entry);
    }
    for (const [id] of taken) this.#pending.delete(id);
    return taken;
  }

  /** The delay, or less if a flush comes meanwhile. */
  async #pause(delay: () => Promise<void>): Promise<void> {
    this.#flushSignal = new Promise<void>((resolve) => (this.#flushRequested = resolve));
    try {
      await Promise.race([delay().catch(() => undefined), this.#flushSignal]);
    } finally {
      this.#flushRequested = undefined;
      this.#flushSignal = undefined;
    }
  }

  /** Writes one round; false (ids kept for later) when the store failed. */
  async #write(taken: readonly [string, number][]): Promise<boolean> {
    const updates: AccessUpdate[] = [];
    for (const [id, accesses] of taken) {
      const metadata = this.#deps.current(id);
      if (metadata !== undefined) updates.push({ id, metadata, accesses });
    }
    if (updates.length === 0) return true;
    try {
      await this.#deps.write(updates);
      return true;
    } catch (error) {
      for (const { id, accesses } of updates) {
        this.#pending.set(id, (this.#pending.get(id) ?? 0) + accesses);
      }
      const what = updates.length === 1 ? `memory ${updates[0]?.id}` : `${updates.length} memories`;
      this.#deps.warn(`failed to update access metadata of ${what}`, error);
      return false;
    }
  }
}
