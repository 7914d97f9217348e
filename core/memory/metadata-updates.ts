import type { Metadata } from "../ports/vector-store.js";
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
