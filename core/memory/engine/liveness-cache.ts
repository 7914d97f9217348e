/**
 * The `MemoryEngine`'s answers about liveness that would otherwise cost a pass over every held
 * memory per request: the stats and the counts by project and tag (valid until the first expiry
 * after them) and "is every held memory live now?" (which lets a query skip the per-memory check).
 */
import { isLive, NEVER_EXPIRES_MS } from "../model/expiry.js";
import type { Memory, MemoryStats } from "../model/types.js";
import { CountTally, type MemoryCounts } from "./memory-counts.js";

/** What the cache reads of one held memory: what it is counted by, and when it expires. */
export interface LivenessEntry extends Pick<Memory, "type" | "scope" | "project" | "tags"> {
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
  readonly #held: ReadonlyMap<string, LivenessEntry>;
  /** Bumped by every change of which memories are held or of their fields (not access data). */
  #version = 0;
  /** Every held memory is live before this instant (a lower bound; `undefined`: unknown). */
  #allLiveBeforeMs: number | undefined;
  /** The version at which some held memory was found expired (until the sweep removes it). */
  #expiredSeenAtVersion = -1;
  /** The last stats answer: valid for the same version until the first expiry after it. */
  #stats: Remembered<MemoryStats> | undefined;
  /** The last counts by project and tag too, valid the same way (asked for apart: dearer). */
  #counts: Remembered<MemoryCounts> | undefined;

  constructor(held: ReadonlyMap<string, LivenessEntry>) {
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
    if (!this.#valid(this.#stats, nowMs)) {
      const { counts, validUntilMs } = this.#countLive(nowMs, false);
      const value = {
        total_memories: counts.total,
        by_type: counts.byType,
        by_scope: counts.byScope,
      };
      this.#stats = { version: this.#version, sinceMs: nowMs, validUntilMs, value };
    }
    return (this.#stats as Remembered<MemoryStats>).value;
  }

  /**
   * Live memories at `nowMs` counted by type, scope, project and tag ({@link MemoryCounts}),
   * remembered like {@link stats} but apart: counting projects and tags costs a pass several
   * times dearer (measured by `bench/memory-stats.ts`), which the seed's stats do not pay.
   */
  counts(nowMs: number): MemoryCounts {
    if (!this.#valid(this.#counts, nowMs)) {
      const { counts, validUntilMs } = this.#countLive(nowMs, true);
      this.#counts = { version: this.#version, sinceMs: nowMs, validUntilMs, value: counts };
    }
    return (this.#counts as Remembered<MemoryCounts>).value;
  }

  #valid(cached: Remembered<unknown> | undefined, nowMs: number): boolean {
    return (
      cached !== undefined &&
      cached.version === this.#version &&
      nowMs >= cached.sinceMs &&
      nowMs < cached.validUntilMs
    );
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

  #countLive(nowMs: number, facets: boolean): { counts: MemoryCounts; validUntilMs: number } {
    const tally = new CountTally({ facets });
    let validUntilMs = NEVER_EXPIRES_MS;
    for (const entry of this.#held.values()) {
      if (!isLive(entry.expiresAtMs, nowMs)) continue;
      tally.add(entry);
      if (entry.expiresAtMs < validUntilMs) validUntilMs = entry.expiresAtMs;
    }
    return { counts: tally.counts(), validUntilMs };
  }
}

/** A remembered answer: valid for `version` from `sinceMs` until `validUntilMs`. */
interface Remembered<T> {
  readonly version: number;
  readonly sinceMs: number;
  readonly validUntilMs: number;
  readonly value: T;
}
