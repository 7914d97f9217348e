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
 * Encodes vectors as float32 little-endian bytes, one after another in one buffer: what a write
 * statement sends as ONE binary parameter (a `bytea[]` parameter would travel as hex text, twice
 * the bytes, escaped by the client and parsed by the server), with each vector's 1-based start
 * and its length in bytes for `substring`.
 *
 * @example
 * encodeVectors([[1, 0.5], [2, 3]]); // { bytes: <16 bytes>, starts: [1, 9], lengths: [8, 8] }
 */
export function encodeVectors(vectors: readonly (readonly number[])[]): {
  bytes: Buffer;
  starts: number[];
  lengths: number[];
} {
  let total = 0;
  for (const vector of vectors) total += vector.length;
  const floats = new Float32Array(total);
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  for (const vector of vectors) {
    starts.push(at * 4 + 1);
    lengths.push(vector.length * 4);
    for (let i = 0; i < vector.length; i += 1) floats[at + i] = vector[i] ?? 0;
    at += vector.length;
  }
  const bytes = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  if (!LITTLE_ENDIAN) bytes.swap32();
  return { bytes, starts, lengths };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Decodes float32 little-endian bytes into a vector.
 *
 * @example
 * decodeVector(encodeVector([1, 0.5])); // [1, 0.5]
 */
export function decodeVector(bytes: Buffer): number[] {
  const n = bytes.length >>> 2;
  const floats = new Float32Array(n);
  new Uint8Array(floats.buffer).set(bytes.subarray(0, n * 4));
  if (!LITTLE_ENDIAN) Buffer.from(floats.buffer).swap32();
  const out = new Array<number>(n);
  for (let i = 0; i < n; i += 1) out[i] = floats[i] as number;
  return out;
}
