/** The first bytes of a word-vector asset. */
export const WORD_VECTOR_MAGIC = "WVEC";
/** Bump when the layout or the build recipe changes (it is part of the embedder id). */
export const WORD_VECTOR_FORMAT = 1;
const HEADER_BYTES = 20;

/**
 * Word vectors in memory: `count` words of `dimensions` int8 numbers, each word with its own
 * scale (`vector = int8 · scale`) and its weight in a text's mean, plus the principal component
 * removed from every text vector.
 */
export interface WordVectorTable {
  readonly dimensions: number;
  /** Word → row. */
  readonly rows: ReadonlyMap<string, number>;
  readonly vectors: Int8Array;
  readonly scales: Float32Array;
  readonly weights: Float32Array;
  /** A unit vector (all zeros: nothing is removed). */
  readonly component: Float32Array;
}

/**
 * The asset's bytes (little endian): `"WVEC"`, u32 format, u32 word count, u32 dimensions,
 * u32 byte length of the word list; f32[dimensions] component; f32[count] scales; f32[count]
 * weights; i8[count × dimensions] vectors; the words in UTF-8, one per line, in row order.
 *
 * @example
 * const bytes = encodeWordVectors(table, words);
 * decodeWordVectors(bytes).rows.get(words[0]); // 0
 */
export function encodeWordVectors(
  table: Omit<WordVectorTable, "rows">,
  words: readonly string[],
): Uint8Array {
  const count = words.length;
  const d = table.dimensions;
  const wordBytes = new TextEncoder().encode(words.join("\n"));
  const total = HEADER_BYTES + 4 * d + 8 * count + count * d + wordBytes.length;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(WORD_VECTOR_MAGIC), 0);
  view.setUint32(4, WORD_VECTOR_FORMAT, true);
  view.setUint32(8, count, true);
  view.setUint32(12, d, true);
  view.setUint32(16, wordBytes.length, true);
  let at = HEADER_BYTES;
  for (const array of [table.component, table.scales, table.weights]) {
    for (const x of array) {
      view.setFloat32(at, x, true);
      at += 4;
    }
  }
  bytes.set(new Uint8Array(table.vectors.buffer, table.vectors.byteOffset, count * d), at);
  bytes.set(wordBytes, at + count * d);
  return bytes;
}

/** Reads an asset written by {@link encodeWordVectors}; throws naming what is wrong with it. */
export function decodeWordVectors(bytes: Uint8Array): WordVectorTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = new TextDecoder().decode(bytes.subarray(0, 4));
  if (bytes.length < HEADER_BYTES || magic !== WORD_VECTOR_MAGIC) {
    throw new Error("word-vector asset: not a WVEC file");
  }
  const format = view.getUint32(4, true);
  if (format !== WORD_VECTOR_FORMAT) {
    throw new Error(`word-vector asset: format ${format}, expected ${WORD_VECTOR_FORMAT}`);
  }
  const count = view.getUint32(8, true);
  const d = view.getUint32(12, true);
  const wordLength = view.getUint32(16, true);
  const expected = HEADER_BYTES + 4 * d + 8 * count + count * d + wordLength;
  if (bytes.length !== expected) {
    throw new Error(`word-vector asset: ${bytes.length} bytes, expected ${expected}`);
  }
  const floats = (offset: number, n: number) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i += 1) out[i] = view.getFloat32(offset + 4 * i, true);
    return out;
  };
  let at = HEADER_BYTES;
  const component = floats(at, d);
  at += 4 * d;
  const scales = floats(at, count);
  at += 4 * count;
  const weights = floats(at, count);
  at += 4 * count;
  // A copy: Node's Buffer#slice is a view, and its .buffer may be a larger shared pool.
  const vectors = new Int8Array(count * d);
  vectors.set(new Int8Array(bytes.buffer, bytes.byteOffset + at, count * d));
  at += count * d;
  const words = new TextDecoder().decode(bytes.subarray(at, at + wordLength)).split("\n");
  if (words.length !== count) {
    throw new Error(`word-vector asset: ${words.length} words, expected ${count}`);
  }
  const rows = new Map<string, number>();
  words.forEach((word, row) => rows.set(word, row));
  return { dimensions: d, rows, vectors, scales, weights, component };
}
