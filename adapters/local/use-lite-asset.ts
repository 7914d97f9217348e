/** The first bytes of a sentence-encoder asset. */
export const USE_LITE_MAGIC = "USEL";
/** Bump when the layout or the conversion recipe changes (it is part of the embedder id). */
export const USE_LITE_FORMAT = 1;
const PREFIX_BYTES = 12;

/**
 * A weight matrix of `rows × cols` numbers, row-major. `u8` matrices hold each row as bytes with
 * its own affine map (`x = min[row] + scale[row] · byte`); `f32` ones hold the numbers.
 */
export type UseLiteTensor =
  | {
      readonly kind: "f32";
      readonly rows: number;
      readonly cols: number;
      readonly data: Float32Array;
    }
  | {
      readonly kind: "u8";
      readonly rows: number;
      readonly cols: number;
      readonly data: Uint8Array;
      readonly min: Float32Array;
      readonly scale: Float32Array;
    };

/** The model in memory: the tokenizer's vocabulary and the named weights. */
export interface UseLiteWeights {
  /** SentencePiece pieces, in id order. */
  readonly pieces: readonly string[];
  /** The unigram log-probability of each piece. */
  readonly scores: readonly number[];
  readonly tensors: ReadonlyMap<string, UseLiteTensor>;
}

interface TensorEntry {
  name: string;
  kind: "f32" | "u8";
  rows: number;
  cols: number;
  offset: number;
}

interface Header {
  pieces: string[];
  scores: number[];
  tensors: TensorEntry[];
}

/**
 * Quantises a matrix row by row to bytes: each row keeps its minimum and `(max - min) / 255`, so
 * the error of a number is at most half a step of its own row.
 *
 * @example
 * const t = quantiseRows(new Float32Array([0, 1, 2, 3]), 2, 2);
 * t.data; // Uint8Array [0, 255, 0, 255]
 */
export function quantiseRows(values: Float32Array, rows: number, cols: number): UseLiteTensor {
  const data = new Uint8Array(rows * cols);
  const min = new Float32Array(rows);
  const scale = new Float32Array(rows);
  for (let r = 0; r < rows; r += 1) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let c = 0; c < cols; c += 1) {
      const x = values[r * cols + c] as number;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const step = hi > lo ? (hi - lo) / 255 : 1;
    min[r] = lo;
    scale[r] = step;
    for (let c = 0; c < cols; c += 1) {
      const q = Math.round(((values[r * cols + c] as number) - lo) / step);
      data[r * cols + c] = Math.min(255, Math.max(0, q));
    }
  }
  return { kind: "u8", rows, cols, data, min, scale };
}

/**
 * The asset's bytes (little endian): `"USEL"`, u32 format, u32 byte length of a UTF-8 JSON header
 * (`{pieces, scores, tensors: [{name, kind, rows, cols, offset}]}`), the header padded with spaces
 * to a multiple of 4, then the tensors: `f32` as `rows × cols` float32; `u8` as `rows × cols`
 * bytes, then float32 `min[rows]` and `scale[rows]` (each tensor starts 4-aligned).
 *
 * @example
 * const bytes = encodeUseLite(weights);
 * decodeUseLite(bytes).tensors.size === weights.tensors.size; // true
 */
export function encodeUseLite(weights: UseLiteWeights): Uint8Array {
  const entries: TensorEntry[] = [];
  const chunks: Uint8Array[] = [];
  let offset = 0;
  const push = (bytes: Uint8Array) => {
    chunks.push(bytes);
    offset += bytes.length;
  };
  const floats = (array: Float32Array) =>
    new Uint8Array(array.buffer.slice(array.byteOffset, array.byteOffset + array.byteLength));
  for (const [name, tensor] of weights.tensors) {
    entries.push({ name, kind: tensor.kind, rows: tensor.rows, cols: tensor.cols, offset });
    if (tensor.kind === "f32") {
      push(floats(tensor.data));
      continue;
    }
    push(tensor.data);
    const pad = (4 - (tensor.data.length % 4)) % 4;
    if (pad > 0) push(new Uint8Array(pad));
    push(floats(tensor.min));
    push(floats(tensor.scale));
  }
  const header: Header = {
    pieces: [...weights.pieces],
    scores: [...weights.scores],
    tensors: entries,
  };
  let json = JSON.stringify(header);
  const encoder = new TextEncoder();
  while (encoder.encode(json).length % 4 !== 0) json += " ";
  const headerBytes = encoder.encode(json);
  const out = new Uint8Array(PREFIX_BYTES + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  out.set(encoder.encode(USE_LITE_MAGIC), 0);
  view.setUint32(4, USE_LITE_FORMAT, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, PREFIX_BYTES);
  let at = PREFIX_BYTES + headerBytes.length;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Reads an asset written by {@link encodeUseLite}; throws naming what is wrong with it. The
 * tensors are views on `bytes` (no copy) when `bytes` is 4-aligned, copies otherwise.
 */
export function decodeUseLite(bytes: Uint8Array): UseLiteWeights {
  const magic = new TextDecoder().decode(bytes.subarray(0, 4));
  if (bytes.length < PREFIX_BYTES || magic !== USE_LITE_MAGIC) {
    throw new Error("sentence-encoder asset: not a USEL file");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint32(4, true);
  if (format !== USE_LITE_FORMAT) {
    throw new Error(`sentence-encoder asset: format ${format}, expected ${USE_LITE_FORMAT}`);
  }
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(
    new TextDecoder().decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)),
  ) as Header;
  const base = PREFIX_BYTES + headerLength;
  const aligned = (bytes.byteOffset + base) % 4 === 0 ? bytes : bytes.slice();
  const start = aligned === bytes ? bytes.byteOffset + base : base;
  const f32 = (at: number, n: number) => {
    if (base + at + 4 * n > bytes.length) throw new Error("sentence-encoder asset: truncated");
    return new Float32Array(aligned.buffer, start + at, n);
  };
  const tensors = new Map<string, UseLiteTensor>();
  for (const { name, kind, rows, cols, offset } of header.tensors) {
    const n = rows * cols;
    if (kind === "f32") {
      tensors.set(name, { kind, rows, cols, data: f32(offset, n) });
      continue;
    }
    const padded = n + ((4 - (n % 4)) % 4);
    const data = new Uint8Array(aligned.buffer, start + offset, n);
    const min = f32(offset + padded, rows);
    const scale = f32(offset + padded + 4 * rows, rows);
    tensors.set(name, { kind, rows, cols, data, min, scale });
  }
  if (header.pieces.length !== header.scores.length) {
    throw new Error("sentence-encoder asset: pieces and scores differ in length");
  }
  return { pieces: header.pieces, scores: header.scores, tensors };
}
