/**
 * Duplicate detection compares content after normalisation: trimmed, and every run of
 * whitespace collapsed to one space. Case and punctuation are kept: "Use UTC" and "use utc"
 * may be deliberately different memories.
 *
 * @example
 * normaliseContent("  deploy on\n\n Fridays "); // "deploy on Fridays"
 */
export function normaliseContent(content: string): string {
  return content.trim().replace(/\s+/gu, " ");
}

/**
 * SHA-256 (hex) of the normalised content, stored as `content_hash` so a duplicate is found with
 * one equality filter instead of a scan. Uses the Web Crypto global, which is computation only.
 * Callers still compare the normalised contents of what the filter returns.
 *
 * @example
 * await contentHash("deploy on Fridays") === await contentHash(" deploy  on Fridays\n"); // true
 */
export async function contentHash(content: string): Promise<string> {
  const bytes = new TextEncoder().encode(normaliseContent(content));
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
