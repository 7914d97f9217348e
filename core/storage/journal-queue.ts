/**
 * The bookkeeping of a `JournaledVectorStore`: the journaled writes the store does not have yet,
 * by position, what each id's last pending write leaves of it, and who waits for the store to
 * catch up (a read of a pending id, a writer waiting for room). Synchronous and I/O-free: the
 * store decides when to write, this only remembers.
 */
import type { JournalEntry } from "../ports/write-journal.js";
import { idsOf, sizeOf } from "./merge-writes.js";

/** One journaled write waiting for the store. */
export interface Queued {
  readonly position: number;
  readonly entry: JournalEntry;
}

interface Waiter {
  readonly position: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Journaled writes waiting for the store, in journal order, and the waits on them.
 *
 * @example
 * const pending = new JournalQueue();
 * pending.enqueue(await journal.append([entry]), entry);
 * const taken = pending.take(2000);
 * await writeToStore(taken);
 * const applied = pending.settle(taken); // wakes who waited for these positions
 */
export class JournalQueue {
  readonly #queue: Queued[] = [];
  #ids = 0;
  /** The store holds every entry up to this position. */
  #applied = 0;
  /** Position of the last journaled entry. */
  #journaled = 0;
  /** The last pending write of each id: its position and whether it leaves the id stored. */
  readonly #pendingIds = new Map<string, { position: number; stored: boolean | undefined }>();
  readonly #waiters: Waiter[] = [];
  #roomWaiters: (() => void)[] = [];

  /** Entries waiting for the store. */
  get length(): number {
    return this.#queue.length;
  }

  /** Ids journaled and not yet in the store (repeats counted). */
  get ids(): number {
    return this.#ids;
  }

  /** The store holds every entry up to this position. */
  get applied(): number {
    return this.#applied;
  }

  /** Position of the last journaled entry. */
  get journaled(): number {
    return this.#journaled;
  }

  /** Whether somebody waits: for the store to reach a position, or for room. */
  get hasWaiters(): boolean {
    return this.#waiters.length > 0 || this.#roomWaiters.length > 0;
  }

  /** What a start replayed: the store holds the journal's first `count` entries. */
  recovered(count: number): void {
    this.#applied = this.#journaled = count;
  }

  /** A write the journal holds now at `position`. */
  enqueue(position: number, entry: JournalEntry): void {
    this.#queue.push({ position, entry });
    this.#ids += sizeOf(entry);
    this.#journaled = position;
    const stored = entry.op === "upsert" ? true : entry.op === "delete" ? false : undefined;
    for (const id of idsOf(entry)) {
      // A metadata update leaves an id as its earlier pending write left it.
      const earlier = this.#pendingIds.get(id);
      this.#pendingIds.set(id, { position, stored: stored ?? earlier?.stored });
    }
  }

  /** The leading entries, up to about `maxIds` ids (at least one entry). */
  take(maxIds: number): Queued[] {
    let ids = 0;
    let count = 0;
    for (const queued of this.#queue) {
      const size = sizeOf(queued.entry);
      if (count > 0 && ids + size > maxIds) break;
      ids += size;
      count += 1;
    }
    return this.#queue.slice(0, count);
  }

  /**
   * The store holds these entries (the leading ones): forgets them, wakes who waited for them and
   * every writer waiting for room, and returns the position the store holds everything up to.
   */
  settle(done: readonly Queued[]): number {
    for (const { position, entry } of done) {
      if (this.#queue[0]?.position === position) this.#queue.shift();
      this.#ids -= sizeOf(entry);
      this.#applied = Math.max(this.#applied, position);
      for (const id of idsOf(entry)) {
        if (this.#pendingIds.get(id)?.position === position) this.#pendingIds.delete(id);
      }
    }
    const applied = this.#applied;
    for (let i = this.#waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.#waiters[i] as Waiter;
      if (waiter.position <= applied) {
        this.#waiters.splice(i, 1);
        waiter.resolve();
      }
    }
    for (const resolve of this.#roomWaiters.splice(0)) resolve();
    return applied;
  }

  /** Whether the id's last pending write leaves it stored (`undefined`: none says; ask the store). */
  storedAfterPending(id: string): boolean | undefined {
    return this.#pendingIds.get(id)?.stored;
  }

  /** Position of the last pending write of any of these ids (0: none). */
  lastPendingOf(ids: readonly string[]): number {
    let last = 0;
    for (const id of ids) last = Math.max(last, this.#pendingIds.get(id)?.position ?? 0);
    return last;
  }

  /** Resolves once the store holds `position` (see {@link settle}); rejected by {@link rejectWaiters}. */
  waitFor(position: number): Promise<void> {
    return new Promise((resolve, reject) => this.#waiters.push({ position, resolve, reject }));
  }

  /** Resolves at the next {@link settle} or {@link rejectWaiters}. */
  waitForRoom(): Promise<void> {
    return new Promise((resolve) => this.#roomWaiters.push(resolve));
  }

  /** Wakes every writer waiting for room (they look again). */
  wakeRoomWaiters(): void {
    for (const resolve of this.#roomWaiters.splice(0)) resolve();
  }

  /** Rejects every wait for a position and wakes every writer waiting for room. */
  rejectWaiters(error: unknown): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
    for (const resolve of this.#roomWaiters.splice(0)) resolve();
  }
}
