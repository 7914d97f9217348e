import type { Metadata } from "../ports/vector-store.js";
import { isLive, NEVER_EXPIRES_MS } from "./expiry.js";
import type { Memory } from "./types.js";

/**
 * Whether a decoded memory is live at `nowMs` (`now < expires_at`; never-expiring memories
 * always are).
 *
 * @example
 * memoryIsLive(await service.get(id), clock.now().getTime()); // true
 */
export function memoryIsLive(memory: Pick<Memory, "expires_at">, nowMs: number): boolean {
  return isLive(
    memory.expires_at === null ? NEVER_EXPIRES_MS : Date.parse(memory.expires_at),
    nowMs,
  );
}

/**
 * Whether a raw store record is live at `nowMs`, judged exactly as the store filter
 * `expires_at_ms > now` would: a record without a numeric `expires_at_ms` never matches it, so
 * it is not live either. Lets recall and search query without the expiry predicate (which makes
 * Chroma's queries several times slower) and drop expired hits in process instead.
 *
 * @example
 * matches.filter((m) => recordIsLive(m.metadata, nowMs));
 */
export function recordIsLive(metadata: Metadata, nowMs: number): boolean {
  const expires = metadata["expires_at_ms"];
  return typeof expires === "number" && isLive(expires, nowMs);
}
