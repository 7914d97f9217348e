/**
 * The `MemoryEngine`'s answers about liveness that would otherwise cost a pass over every held
 * memory per request: the stats and the counts by project and tag (valid until the first expiry
 * after them) and "is every held memory live now?" (which lets a query skip the per-memory check).
 */
import { isLive, NEVER_EXPIRES_MS } from "../model/expiry.js";
import type { Memory, MemoryStats } from "../model/types.js";
import { CountTally, type MemoryCounts } from "./memory-counts.js";

/** What the cache reads of one held memory. */
export interface HeldMemory {
  readonly memory: Memory;
  /** When it expires, in epoch ms ({@link NEVER_EXPIRES_MS}: never). */
  readonly expiresAtMs: number;
}

/**
 * Caches over the engine's held memories, told of every change by the engine: {@link changed}
 * when which memories are held or their type, scope, project, tags or expiry change, {@link added} with a new
 * memory's expiry, {@link expiriesMoved} when an expiry may have moved earlier. An access only
 * moves expiries later, so it needs no call.
 *
 * @example
 * const cache = new LivenessCache(entries);
 * cache.changed();
 * cache.added(expiresAtMs);
 * cache.stats(nowMs); // one pass, then remembered
 */
export class LivenessCache {
  readonly #held: ReadonlyMap<string, HeldMemory>;
  /** Bumped by every change of which memories are held or of their fields (not access data). */
  #version = 0;
  /** Every held memory is live before this instant (a lower bound; `undefined`: unknown). */
  #allLiveBeforeMs: number | undefined;
  /** The version at which some held memory was found expired (until the sweep removes it). */
  #expiredSeenAtVersion = -1;
  /** The last stats answer: valid for the same version until the first expiry after it. */
  #stats:
    | {
        version: number;
        validUntilMs: number;
        sinceMs: number;
        value: MemoryStats;
        counts: MemoryCounts;
      }
    | undefined;

  constructor(held: ReadonlyMap<string, HeldMemory>) {
    this.#held = held;
  }

  /** Which memories are held, or their type, scope, project, tags or expiry, changed. */
  changed(): void {
    this.#version += 1;
  }

  /** A memory expiring at `expiresAtMs` was added: the lower bound may drop. */
  added(expiresAtMs: number): void {
    if (this.#allLiveBeforeMs !== undefined && expiresAtMs < this.#allLiveBeforeMs) {
      this.#allLiveBeforeMs = expiresAtMs;
    }
  }

  /** An expiry may have moved earlier: the lower bound is unknown until the next pass. */
  expiriesMoved(): void {
    this.#allLiveBeforeMs = undefined;
  }

  /**
   * Live memories at `nowMs`: the total and one count per type and per scope, zeros included.
   * One pass over the memories, remembered until a memory is added, removed or updated or the
   * first live one expires (an access only moves expiries later, so it keeps the answer valid).
   */
  stats(nowMs: number): MemoryStats {
    return this.#current(nowMs).value;
  }

  /**
   * Live memories at `nowMs` counted by type, scope, project and tag ({@link MemoryCounts}),
   * from the same remembered pass as {@link stats}.
   */
  counts(nowMs: number): MemoryCounts {
    return this.#current(nowMs).counts;
  }

  #current(nowMs: number): { value: MemoryStats; counts: MemoryCounts } {
    const cached = this.#stats;
    if (
      cached !== undefined &&
      cached.version === this.#version &&
      nowMs >= cached.sinceMs &&
      nowMs < cached.validUntilMs
    ) {
      return cached;
    }
    const fresh = { version: this.#version, sinceMs: nowMs, ...this.#countLive(nowMs) };
    this.#stats = fresh;
    return fresh;
  }

  /**
   * Whether every held memory is live at `nowMs`: true before the earliest expiry (kept as a
   * lower bound: adds lower it, accesses only move expiries later, removals leave it low), found
   * again by one pass when `nowMs` reaches it; once a pass finds an expired memory, no further
   * pass runs until the held memories change (the sweep removes it).
   */
  allLive(nowMs: number): boolean {
    if (this.#allLiveBeforeMs !== undefined && nowMs < this.#allLiveBeforeMs) return true;
    if (this.#expiredSeenAtVersion === this.#version) return false;
    let earliest = NEVER_EXPIRES_MS;
    for (const entry of this.#held.values()) {
      if (entry.expiresAtMs < earliest) earliest = entry.expiresAtMs;
    }
    this.#allLiveBeforeMs = earliest;
    if (nowMs < earliest) return true;
    this.#expiredSeenAtVersion = this.#version;
    return false;
  }

  #countLive(nowMs: number): { value: MemoryStats; counts: MemoryCounts; validUntilMs: number } {
    const tally = new CountTally();
    let validUntilMs = NEVER_EXPIRES_MS;
    for (const entry of this.#held.values()) {
      if (!isLive(entry.expiresAtMs, nowMs)) continue;
      tally.add(entry.memory);
      if (entry.expiresAtMs < validUntilMs) validUntilMs = entry.expiresAtMs;
    }
    const counts = tally.counts();
    const value = {
      total_memories: counts.total,
      by_type: counts.byType,
      by_scope: counts.byScope,
    };
    return { value, counts, validUntilMs };
  }
}
