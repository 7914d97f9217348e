import type { ExpiryOptions } from "./expiry.js";
import { MAX_TTL_SECONDS } from "./schemas.js";
import type { MemoryScope } from "./types.js";

/**
 * How far in the future an imported `created_at`, `updated_at` or `last_accessed` may lie (the
 * clocks of two machines differ a little): 5 minutes.
 */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

const HOUR_MS = 3_600_000;

/**
 * Why an import line's timestamp lies in the future beyond {@link MAX_CLOCK_SKEW_MS}, naming the
 * field, or undefined: imported data must not pin itself at the top of recency (issue 26: a
 * `created_at` in year 9999 was accepted).
 *
 * @example
 * futureTimestamp({ created_at: "9999-01-01T00:00:00.000Z" }, Date.parse("2026-11-21T10:00:00Z"));
 * // "created_at: expected an instant no later than now (5 minutes of clock skew allowed), got 9999-01-01T00:00:00.000Z"
 */
export function futureTimestamp(
  line: {
    readonly created_at?: string | undefined;
    readonly updated_at?: string | undefined;
    readonly last_accessed?: string | undefined;
  },
  nowMs: number,
): string | undefined {
  for (const field of ["created_at", "updated_at", "last_accessed"] as const) {
    const value = line[field];
    if (value !== undefined && Date.parse(value) > nowMs + MAX_CLOCK_SKEW_MS) {
      return `${field}: expected an instant no later than now (${MAX_CLOCK_SKEW_MS / 60_000} minutes of clock skew allowed), got ${value}`;
    }
  }
  return undefined;
}

/** What {@link expiryBeyondLimit} checks: an import line's scope, expiry and timestamps. */
export interface ImportedExpiry {
  readonly scope: MemoryScope;
  /** Null: never expires. */
  readonly expiresMs: number | null;
  readonly createdMs: number;
  readonly lastAccessedMs: number;
}

/**
 * Why an imported `expires_at` is later than the API could give the memory's scope, or
 * undefined: a `ttl` memory lives at most `ttl_seconds`' limit (100 years) after `created_at`, a
 * `session` memory at most the configured idle window after its last access (issue 26: a
 * session memory expiring in 9999 never expired).
 *
 * @example
 * expiryBeyondLimit({ scope: "session", expiresMs: Date.parse("9999-01-01"), createdMs: 0, lastAccessedMs: 0 },
 *   { ttlHours: 24, sessionIdleHours: 24 });
 * // "expires_at: a session memory expires at most 24 hours (the session idle window) after last_accessed, got 9999-01-01T00:00:00.000Z"
 */
export function expiryBeyondLimit(
  line: ImportedExpiry,
  options: ExpiryOptions,
): string | undefined {
  const { scope, expiresMs } = line;
  if (expiresMs === null) return undefined;
  const got = new Date(expiresMs).toISOString();
  if (scope === "ttl" && expiresMs > line.createdMs + MAX_TTL_SECONDS * 1000) {
    return `expires_at: a ttl memory lives at most ${MAX_TTL_SECONDS} seconds (the limit of ttl_seconds) after created_at, got ${got}`;
  }
  const idleHours = options.sessionIdleHours;
  if (scope === "session" && expiresMs > line.lastAccessedMs + idleHours * HOUR_MS) {
    return `expires_at: a session memory expires at most ${idleHours} hours (the session idle window) after last_accessed, got ${got}`;
  }
  return undefined;
}
