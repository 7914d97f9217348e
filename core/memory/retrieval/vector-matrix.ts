import { VECTOR_KERNEL_WASM } from "./vector-kernel-wasm.js";

const INITIAL_ROWS = 64;
const PAGE_BYTES = 65_536;
/** Floats per SIMD lane group: rows are padded to a multiple of this. */
const LANES = 4;

/** The part of the WebAssembly JavaScript API used here (the core compiles without DOM types). */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}

interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly min: { readonly value: number };
  readonly max: { readonly value: number };
  dot(row: number, query: number, bytes: number): number;
  scan(data: number, query: number, mask: number, out: number, rows: number, bytes: number): void;
}

let compiled: object | undefined;

function instantiateKernel(): KernelExports {
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
  compiled ??= new wasm.Module(VECTOR_KERNEL_WASM);
  return new wasm.Instance(compiled).exports as KernelExports;
}

/**
 * Document vectors as the rows of one growable float32 matrix inside a WebAssembly memory, scored
 * against a query by the SIMD kernel of `vector-kernel.wat` (4 bytes a number: 100k × 100
 * dimensions is 40 MB; a scan of 10,000 × 100 takes ~0.2 ms against ~1.9 ms for the plain
 * JavaScript loop). The dimension is fixed by the first row; rows are padded with zeros to a
 * multiple of 4 floats.
 *
 * Every dot product (one row or a scan) sums in the kernel's documented order: four float32 lanes,
 * lane k over the components j ≡ k (mod 4), then `(lane0 + lane1) + (lane2 + lane3)`.
 *
 * @example
 * const matrix = new VectorMatrix();
 * matrix.set(0, [0.6, 0.8]);
 * matrix.dot(0, matrix.queryVector([1, 0])); // ≈ 0.6
 */
export class VectorMatrix {
  #dimensions = 0;
  /** Floats per stored row (the dimension rounded up to a multiple of {@link LANES}). */
  #stride = 0;
  #capacity = 0;
  #kernel: KernelExports | undefined;
  // Byte offsets of the regions after the rows (recomputed when the capacity grows).
  #queryAt = 0;
  #maskAt = 0;
  #outAt = 0;
  #floats = new Float32Array(0);
  #bytes = new Uint8Array(0);
  #similarities = new Float32Array(0);

  /** Length of every row; 0 before the first. */
  get dimensions(): number {
    return this.#dimensions;
  }

  /**
   * The similarities of the last {@link scan}, by row (a view: valid until the next `set`,
   * `scan` or `remap`).
   */
  get similarities(): Float32Array {
    return this.#similarities;
  }

  /** Stores a row; throws when its length differs from the first row's. */
  set(row: number, vector: readonly number[]): void {
    if (this.#dimensions === 0) {
      if (vector.length === 0) throw new Error("retrieval index: vector of 0 dimensions");
      this.#dimensions = vector.length;
      this.#stride = Math.ceil(vector.length / LANES) * LANES;
    }
    if (vector.length !== this.#dimensions) {
      throw new Error(
        `retrieval index: vector of ${vector.length} dimensions, expected ${this.#dimensions}`,
      );
    }
    if (row >= this.#capacity) this.#grow(Math.max(row + 1, this.#capacity * 2, INITIAL_ROWS));
    const at = row * this.#stride;
    this.#floats.set(vector, at);
    this.#floats.fill(0, at + vector.length, at + this.#stride);
  }

  /** A copy of a stored row (its float32 values, without the padding). */
  row(row: number): number[] {
    const at = row * this.#stride;
    return Array.from(this.#floats.subarray(at, at + this.#dimensions));
  }

  /**
   * A query vector in the rows' precision, placed where the kernel reads it (valid until the
   * next `queryVector`, `set` or `remap`); throws on a dimension mismatch.
   */
  queryVector(vector: readonly number[]): Float32Array {
    if (this.#dimensions !== 0 && vector.length !== this.#dimensions) {
      throw new Error(
        `retrieval index: query vector of ${vector.length} dimensions, expected ${this.#dimensions}`,
      );
    }
    if (this.#kernel === undefined) return Float32Array.from(vector);
    const query = this.#floats.subarray(this.#queryAt / 4, this.#queryAt / 4 + this.#stride);
    query.set(vector);
    query.fill(0, vector.length);
    return query;
  }

  /** The dot product of a row and the query from {@link queryVector} (the cosine for unit vectors). */
  dot(row: number): number {
    const kernel = this.#kernel;
    if (kernel === undefined) return 0;
    const bytes = this.#stride * 4;
    return kernel.dot(row * bytes, this.#queryAt, bytes);
  }

  /**
   * Dot products of the query from {@link queryVector} with every row `r < rowCount` where
   * `accepted[r] === 1`, into {@link similarities}`[r]` (other rows hold stale values); returns
   * their minimum and maximum (`Infinity`/`-Infinity` when none).
   */
  scan(accepted: Uint8Array, rowCount: number): { min: number; max: number } {
    const kernel = this.#kernel;
    if (kernel === undefined || rowCount === 0) return { min: Infinity, max: -Infinity };
    this.#bytes.set(accepted.subarray(0, rowCount), this.#maskAt);
    kernel.scan(0, this.#queryAt, this.#maskAt, this.#outAt, rowCount, this.#stride * 4);
    return { min: kernel.min.value, max: kernel.max.value };
  }

  /** Moves rows to their new numbers (`newRow[old]`, -1 to drop); keeps order, shrinks storage. */
  remap(newRow: Int32Array, rowCount: number): void {
    const old = this.#floats;
    const stride = this.#stride;
    this.#kernel = undefined;
    this.#capacity = 0;
    if (stride === 0) return;
    this.#grow(Math.max(rowCount, INITIAL_ROWS));
    for (let from = 0; from < newRow.length; from += 1) {
      const to = newRow[from] as number;
      if (to >= 0) this.#floats.set(old.subarray(from * stride, (from + 1) * stride), to * stride);
    }
  }

  /** Room for `rows` rows (a new kernel instance the first time and after a remap). */
  #grow(rows: number): void {
    const rowBytes = this.#stride * 4;
    const queryAt = rows * rowBytes;
    const maskAt = queryAt + rowBytes;
    const outAt = maskAt + Math.ceil(rows / 16) * 16;
    const needed = outAt + rows * 4;
    const kernel = this.#kernel ?? instantiateKernel();
    const have = kernel.memory.buffer.byteLength;
    if (needed > have) kernel.memory.grow(Math.ceil((needed - have) / PAGE_BYTES));
    const buffer = kernel.memory.buffer;
    this.#kernel = kernel;
    this.#capacity = rows;
    this.#queryAt = queryAt;
    this.#maskAt = maskAt;
    this.#outAt = outAt;
    this.#floats = new Float32Array(buffer);
    this.#bytes = new Uint8Array(buffer);
    this.#similarities = new Float32Array(buffer, outAt, rows);
  }
}
