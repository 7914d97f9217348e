import { expiresAtMs, type ExpiryOptions } from "./expiry.js";
import { uniqueTags } from "./metadata-updates.js";
import type { ParsedRememberInput } from "./schemas.js";
import type { Memory } from "./types.js";

/**
 * The Memory a `remember` stores when it finds no duplicate: created, updated and last accessed
 * now, never accessed, tags without repeats, and its expiry computed from the scope (and
 * `ttl_seconds`) with the options in effect now.
 *
 * @example
 * const memory = newMemory(body, newId(), clock.now().getTime(), service.options);
 */
export function newMemory(
  body: ParsedRememberInput,
  id: string,
  nowMs: number,
  options: ExpiryOptions,
): Memory {
  const now = isoOf(nowMs);
  const expires = expiresAtMs(
    { scope: body.scope, createdAtMs: nowMs, lastAccessedMs: nowMs, ttlSeconds: body.ttl_seconds },
    options,
  );
  return {
    id,
    content: body.content,
    type: body.type,
    scope: body.scope,
    tags: uniqueTags(body.tags),
    project: body.project,
    confidence: body.confidence,
    created_at: now,
    updated_at: now,
    last_accessed: now,
    access_count: 0,
    expires_at: expires === null ? null : isoOf(expires),
  };
}

let lastMs = Number.NaN;
let lastIso = "";

/**
 * `new Date(ms).toISOString()`, the last answer remembered: a batch's memories share their
 * instant (and most their expiry), so 1,000 of them share one string instead of formatting
 * 2,000 (and the engine and the store hold one copy).
 */
function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
