import type { MemoryScope } from "./types.js";

/**
 * The `expires_at_ms` stored for memories that never expire: the largest instant a JavaScript
 * Date can hold (+275760-09-13). Storing a number instead of leaving the key out lets one
 * `expires_at_ms > now` filter select every live memory, expiring or not.
 */
export const NEVER_EXPIRES_MS = 8_640_000_000_000_000;

const HOUR_MS = 3_600_000;

/** What an expiry instant is computed from. */
export interface ExpiryInput {
  readonly scope: MemoryScope;
  readonly createdAtMs: number;
  readonly lastAccessedMs: number;
  /** Per-memory lifetime of a `ttl` memory; overrides `ttlHours`. */
  readonly ttlSeconds?: number | undefined;
}

/** The expiry options of the memory service. */
export interface ExpiryOptions {
  readonly ttlHours: number;
  readonly sessionIdleHours: number;
}

/**
 * When a memory expires if nothing changes, in ms since the epoch, or `null` for `permanent`
 * and `project` memories. `ttl`: created + ttl_seconds (else ttl_hours), fixed for life.
 * `session`: last access + session_idle_hours, so every recall that returns it extends it.
 *
 * @example
 * expiresAtMs({ scope: "ttl", createdAtMs: 0, lastAccessedMs: 0, ttlSeconds: 60 }, options); // 60000
 */
export function expiresAtMs(input: ExpiryInput, options: ExpiryOptions): number | null {
  switch (input.scope) {
    case "ttl":
      return (
        input.createdAtMs +
        (input.ttlSeconds !== undefined ? input.ttlSeconds * 1000 : options.ttlHours * HOUR_MS)
      );
    case "session":
      return input.lastAccessedMs + options.sessionIdleHours * HOUR_MS;
    case "permanent":
    case "project":
      return null;
  }
}

/**
 * A memory is live while `now < expires_at`: at the expiry instant itself it is already gone.
 * This matches the store filter `expires_at_ms > now` used for every read.
 *
 * @example
 * isLive(60_000, 59_999); // true
 * isLive(60_000, 60_000); // false
 */
export function isLive(expiresAtMsValue: number, nowMs: number): boolean {
  return nowMs < expiresAtMsValue;
}
