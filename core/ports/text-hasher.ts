/**
 * Where the core hashes text: SHA-256 of a string's UTF-8 bytes, as lower-case hex. The memory
 * service hashes the normalised content of every memory it stores (its duplicate key). The core
 * ships a pure implementation (`PURE_TEXT_HASHER`); a shell can pass `NodeTextHasher`
 * (`node:crypto`, several times cheaper per text) from `agent-services/adapters/system`.
 *
 * @example
 * const hasher: TextHasher = { sha256Hex: (text) => createHash("sha256").update(text).digest("hex") };
 * hasher.sha256Hex("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 */
export interface TextHasher {
  /** SHA-256 of the UTF-8 bytes of `text`, as 64 lower-case hex digits. */
  sha256Hex(text: string): string;
}
