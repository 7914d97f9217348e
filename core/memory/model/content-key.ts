import type { TextHasher } from "../../ports/text-hasher.js";
import { sha256Hex } from "./sha256.js";

/** Whitespace that `normaliseContent` changes: any but a single space, or a run of two. */
const UNNORMALISED_SPACE = /[^\S ]|\s\s/u;

/**
 * Duplicate detection compares content after normalisation: trimmed, and every run of
 * whitespace collapsed to one space. Case and punctuation are kept: "Use UTC" and "use utc"
 * may be deliberately different memories.
 *
 * @example
 * normaliseContent("  deploy on\n\n Fridays "); // "deploy on Fridays"
 */
export function normaliseContent(content: string): string {
  const trimmed = content.trim();
  // Single spaces only (the usual text): the replace would rebuild the same string, one match
  // per space; the test allocates nothing.
  return UNNORMALISED_SPACE.test(trimmed) ? trimmed.replace(/\s+/gu, " ") : trimmed;
}

const encoder = new TextEncoder();

/**
 * SHA-256 (hex) of the normalised content: the engine's duplicate-lookup key, also stored as
 * `content_hash`. Callers still compare the normalised contents of the memories it finds.
 * Computed synchronously ({@link sha256Hex}); the promise is kept for the callers' API.
 *
 * @example
 * await contentHash("deploy on Fridays") === await contentHash(" deploy  on Fridays\n"); // true
 */
export function contentHash(content: string): Promise<string> {
  return Promise.resolve(contentHashWith(PURE_TEXT_HASHER, content));
}

/**
 * The core's pure {@link TextHasher} ({@link sha256Hex} over the UTF-8 bytes): the default of a
 * `MemoryService` given no hasher.
 *
 * @example
 * PURE_TEXT_HASHER.sha256Hex("abc"); // "ba7816bf…f20015ad"
 */
export const PURE_TEXT_HASHER: TextHasher = {
  sha256Hex: (text) => sha256Hex(encoder.encode(text)),
};

/**
 * {@link contentHash} with a given hasher, synchronously: the same key whichever SHA-256
 * implementation computes it.
 *
 * @example
 * contentHashWith(new NodeTextHasher(), " deploy  on Fridays\n") === await contentHash("deploy on Fridays"); // true
 */
export function contentHashWith(hasher: TextHasher, content: string): string {
  return hasher.sha256Hex(normaliseContent(content));
}
