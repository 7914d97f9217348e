/**
 * Vectors as PostgreSQL `bytea`: float32, little-endian, 4 bytes per dimension. Measured against
 * `real[]` by `bench/postgres-store.ts` (see docs/postgres-store.md): bytea is smaller on disk
 * and on the wire and decodes without parsing text.
 */

/**
 * Encodes a vector as float32 little-endian bytes.
 *
 * @example
 * encodeVector([1, 0.5]).length; // 8
 */
export function encodeVector(vector: readonly number[]): Buffer {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i += 1) bytes.writeFloatLE(vector[i] ?? 0, i * 4);
  return bytes;
}

/**
 * Decodes float32 little-endian bytes into a vector.
 *
 * @example
 * decodeVector(encodeVector([1, 0.5])); // [1, 0.5]
 */
export function decodeVector(bytes: Buffer): number[] {
  const n = bytes.length >>> 2;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i += 1) out[i] = bytes.readFloatLE(i * 4);
  return out;
}
