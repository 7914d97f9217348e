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
  const now = new Date(nowMs).toISOString();
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
    expires_at: expires === null ? null : new Date(expires).toISOString(),
  };
}
