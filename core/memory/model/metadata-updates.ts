import type { Metadata } from "../../ports/vector-store.js";
import { expiresAtMs, type ExpiryOptions } from "./expiry.js";
import { encodeExpiry, encodeInstant, encodeTags } from "./memory-metadata.js";
import type { Memory } from "./types.js";

/**
 * The metadata keys a recall access changes: `access_count + accesses` (one by default),
 * `last_accessed`, and for a `session` memory its expiry (last access + idle window). A `ttl`
 * memory's expiry is fixed at creation. Recalls may finish out of order, so `last_accessed` never
 * moves backwards. `accesses` lets one write count several recalls that returned the memory.
 *
 * @example
 * await store.updateMetadata([{ id, metadata: accessMetadata(current, nowMs, options) }]);
 */
export function accessMetadata(
  current: Memory,
  accessedAtMs: number,
  options: ExpiryOptions,
  accesses = 1,
): Metadata {
  const lastAccessedMs = Math.max(accessedAtMs, Date.parse(current.last_accessed));
  const expires =
    current.scope === "session"
      ? expiresAtMs(
          { scope: "session", createdAtMs: Date.parse(current.created_at), lastAccessedMs },
          options,
        )
      : null;
  return {
    access_count: current.access_count + accesses,
    ...encodeInstant("last_accessed", new Date(lastAccessedMs).toISOString()),
    ...(expires === null ? {} : encodeExpiry(new Date(expires).toISOString())),
  };
}

/**
 * The metadata keys a duplicate `remember` changes on the memory it merges into: tags become the
 * union (existing order first), confidence the higher of the two, `updated_at` now. Nothing else
 * moves: a duplicate is not an access, so it neither counts nor extends a session memory.
 *
 * @example
 * await store.updateMetadata([{ id, metadata: duplicateMergeMetadata(current, body, nowMs) }]);
 */
export function duplicateMergeMetadata(
  current: Memory,
  incoming: { readonly tags: readonly string[]; readonly confidence: number },
  nowMs: number,
): Metadata {
  return {
    tags: encodeTags(uniqueTags([...current.tags, ...incoming.tags])),
    confidence: Math.max(current.confidence, incoming.confidence),
    ...encodeInstant("updated_at", new Date(nowMs).toISOString()),
  };
}

/**
 * Tags without repeats, first occurrence kept: a label carries no extra meaning twice.
 *
 * @example
 * uniqueTags(["a", "b", "a"]); // ["a", "b"]
 */
export function uniqueTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/**
 * The memory after `accesses` recalls returned it at `accessedAtMs`: the in-memory side of
 * {@link accessMetadata} (the same rules: `last_accessed` never moves back, a session memory's
 * expiry moves with it).
 *
 * @example
 * const accessed = withAccess(memory, clock.now().getTime(), service.options);
 * accessed.access_count === memory.access_count + 1; // true
 */
export function withAccess(
  memory: Memory,
  accessedAtMs: number,
  options: ExpiryOptions,
  accesses = 1,
): Memory {
  const lastAccessedMs = Math.max(accessedAtMs, Date.parse(memory.last_accessed));
  const expires =
    memory.scope === "session"
      ? expiresAtMs(
          { scope: "session", createdAtMs: Date.parse(memory.created_at), lastAccessedMs },
          options,
        )
      : null;
  return {
    ...memory,
    access_count: memory.access_count + accesses,
    last_accessed: new Date(lastAccessedMs).toISOString(),
    expires_at: expires === null ? memory.expires_at : new Date(expires).toISOString(),
  };
}

/**
 * The metadata keys that hold a memory's access data as it is now (`access_count`,
 * `last_accessed`, and a session memory's expiry): what the access write-behind persists.
 *
 * @example
 * await store.updateMetadata([{ id, metadata: accessKeys(engine.peek(id)) }]);
 */
export function accessKeys(memory: Memory): Metadata {
  return {
    access_count: memory.access_count,
    ...encodeInstant("last_accessed", memory.last_accessed),
    ...(memory.scope === "session" ? encodeExpiry(memory.expires_at) : {}),
  };
}

/**
 * The memory after a duplicate `remember` merged into it: the in-memory side of
 * {@link duplicateMergeMetadata}.
 *
 * @example
 * const merged = withMerge(memory, { tags: ["ops"], confidence: 0.9 }, nowMs);
 */
export function withMerge(
  memory: Memory,
  incoming: { readonly tags: readonly string[]; readonly confidence: number },
  nowMs: number,
): Memory {
  return {
    ...memory,
    tags: uniqueTags([...memory.tags, ...incoming.tags]),
    confidence: Math.max(memory.confidence, incoming.confidence),
    updated_at: new Date(nowMs).toISOString(),
  };
}
