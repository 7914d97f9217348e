import { AgentServicesError } from "../../errors.js";
import type { ParsedUpdateInput } from "./admin-schemas.js";
import { expiresAtMs, type ExpiryOptions } from "./expiry.js";
import { uniqueTags } from "./metadata-updates.js";
import type { Memory } from "./types.js";

/**
 * A memory after a `PATCH`: the given fields replaced, `updated_at` now, and `created_at`,
 * `last_accessed` and `access_count` untouched. The expiry follows the scope:
 *
 * - `ttl`: `ttl_seconds` from now when given; else unchanged if it was already `ttl`, else
 *   `memory.ttl_hours` from now (a patch never makes a memory expire in the past);
 * - `session`: unchanged if it was already `session`, else the idle window from now;
 * - `permanent`, `project`: never.
 *
 * `ttl_seconds` with a resulting scope other than `ttl` is refused, naming the field.
 *
 * @example
 * patchedMemory(memory, { scope: "permanent", tags: ["ops"] }, nowMs, options).expires_at; // null
 */
export function patchedMemory(
  current: Memory,
  patch: ParsedUpdateInput,
  nowMs: number,
  options: ExpiryOptions,
): Memory {
  const scope = patch.scope ?? current.scope;
  if (patch.ttl_seconds !== undefined && scope !== "ttl") {
    throw new AgentServicesError(
      "invalid_input",
      `ttl_seconds: only applies to scope "ttl", got scope "${scope}"`,
    );
  }
  const keep = scope === current.scope && patch.ttl_seconds === undefined;
  const expires = keep
    ? current.expires_at
    : isoOrNull(
        expiresAtMs(
          { scope, createdAtMs: nowMs, lastAccessedMs: nowMs, ttlSeconds: patch.ttl_seconds },
          options,
        ),
      );
  return {
    ...current,
    content: patch.content ?? current.content,
    type: patch.type ?? current.type,
    scope,
    tags: patch.tags === undefined ? current.tags : uniqueTags(patch.tags),
    project: patch.project ?? current.project,
    confidence: patch.confidence ?? current.confidence,
    updated_at: new Date(nowMs).toISOString(),
    expires_at: expires,
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
