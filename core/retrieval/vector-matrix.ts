/**
 * Document vectors in WebAssembly memory, scored by the SIMD kernel.
 * Long because: one class over one block of WebAssembly memory whose layout (rows, int8 codes,
 * scales, the kernel's query, mask and output regions) every method shares; splitting it would
 * spread raw byte offsets over several files.
 */
import { VECTOR_KERNEL_WASM } from "./vector-kernel-wasm.js";
import type { VectorsImage } from "./index-image.js";
import { quantizeQuery, quantizeRow, ROW_CODE_MAX } from "./vector-codes.js";

const INITIAL_ROWS = 64;
/** The row number {@link VectorMatrix} uses for its spare row while it permutes rows in place. */
const SPARE = -1;
const PAGE_BYTES = 65_536;
/** Floats per SIMD lane group: rows are padded to a multiple of this. */
const LANES = 4;
/** Row codes are padded to a multiple of this many bytes (one SIMD load). */
const CODE_LANES = 16;
/** Largest magnitude of a query code (int16), lowered for long rows so int32 sums cannot overflow. */
const QUERY_CODE_MAX = 32767;

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
  approximate(
    codes: number,
    scales: number,
    query: number,
    mask: number,
    out: number,
    rows: number,
    bytes: number,
    t: number,
  ): void;
  extremes(
    data: number,
    query: number,
    mask: number,
    approx: number,
    rows: number,
    bytes: number,
    above: number,
    below: number,
  ): void;
}

/** What {@link VectorMatrix.boundedScan} found. */
export interface BoundedScan {
  /** The exact smallest similarity of the accepted rows (`Infinity` when none). */
  readonly min: number;
  /** The exact largest similarity of the accepted rows (`-Infinity` when none). */
  readonly max: number;
  /** `|similarities[r] − dot(r)| ≤ slack` for every accepted row `r`. */
  readonly slack: number;
}

let compiled: object | undefined;

/** Matrices whose memory {@link VectorMatrix.reserveImage} handed out, by that memory. */
const RESERVED = new WeakMap<ArrayBuffer, VectorMatrix>();

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
 * multiple of 4 floats. Each row also has int8 codes and a scale (a quarter of the bytes), which
 * {@link VectorMatrix.boundedScan} reads instead of the floats (100k × 100: 0.56 ms against
 * 1.2 ms for the float scan, which is memory-bound).
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
  #codesAt = 0;
  #scalesAt = 0;
  #queryCodesAt = 0;
  /** Bytes of int8 codes per row (the stride rounded up to a multiple of {@link CODE_LANES}). */
  #codeBytes = 0;
  #floats = new Float32Array(0);
  #bytes = new Uint8Array(0);
  #similarities = new Float32Array(0);
  // Upper bounds over every row stored (never lowered: removed rows only loosen them) of the
  // quantisation residual's norm, of Σ |code| × scale and of the row's norm.
  #maxResidual = 0;
  #maxL1 = 0;
  #maxNorm = 0;
  /** The scale and norm of the query's codes (see {@link queryVector}). */
  #queryScale = 0;
  #queryNorm = 0;
  /** The scale of the row held in the spare row during {@link remap}. */
  #spareScale = 0;

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

  /** Its first `rowCount` rows as views of its memory (valid until it next changes). */
  image(rowCount: number): VectorsImage {
    const stride = this.#stride;
    const buffer = this.#bytes.buffer as ArrayBuffer;
    return {
      dimensions: this.#dimensions,
      rows: new Float32Array(buffer, 0, rowCount * stride),
      codes: new Int8Array(buffer, this.#codesAt, rowCount * this.#codeBytes),
      scales: new Float32Array(buffer, this.#scalesAt, rowCount),
      maxResidual: this.#maxResidual,
      maxL1: this.#maxL1,
      maxNorm: this.#maxNorm,
    };
  }

  /**
   * A matrix holding an image's rows: those of {@link VectorMatrix.reserveImage}'s views taken
   * over in place, any others copied.
   */
  static fromImage(image: VectorsImage): VectorMatrix {
    const reserved = RESERVED.get(image.rows.buffer);
    if (reserved !== undefined && reserved.#holdsInPlace(image)) {
      RESERVED.delete(image.rows.buffer);
      reserved.#maxResidual = image.maxResidual;
      reserved.#maxL1 = image.maxL1;
      reserved.#maxNorm = image.maxNorm;
      return reserved;
    }
    const matrix = new VectorMatrix();
    const rows = matrix.#shape(image.dimensions, image.rows.length);
    if (rows === 0 && image.dimensions === 0) return matrix;
    if (image.scales.length !== rows) throw new Error("vector matrix image: sizes do not match");
    matrix.#floats.set(image.rows, 0);
    matrix.#bytes.set(
      new Uint8Array(image.codes.buffer, image.codes.byteOffset, rows * matrix.#codeBytes),
      matrix.#codesAt,
    );
    matrix.#floats.set(image.scales, matrix.#scalesAt / 4);
    matrix.#maxResidual = image.maxResidual;
    matrix.#maxL1 = image.maxL1;
    matrix.#maxNorm = image.maxNorm;
    return matrix;
  }

  /**
   * Where a reader of a saved image (`dimensions`, rows of `floats` floats in all) can put its
   * rows, codes and scales: views of a new matrix's memory, which {@link VectorMatrix.fromImage}
   * then takes over without a copy (the bytes are read once, into their final place); `undefined`
   * when `floats` is not a whole number of rows (the image is not this shape: read it as usual,
   * and `fromImage` refuses it). A matrix whose views are not all filled and given back is
   * garbage like any other.
   *
   * @example
   * const { rows, codes, scales } = VectorMatrix.reserveImage(100, 100 * 1000)!;
   * // read the image's arrays into rows, codes and scales, then:
   * VectorMatrix.fromImage({ dimensions: 100, rows, codes, scales, maxResidual, maxL1, maxNorm });
   */
  static reserveImage(
    dimensions: number,
    floats: number,
  ): Pick<VectorsImage, "rows" | "codes" | "scales"> | undefined {
    const stride = Math.ceil(dimensions / LANES) * LANES;
    if (dimensions > 0 && floats % stride !== 0) return undefined;
    const matrix = new VectorMatrix();
    const rows = matrix.#shape(dimensions, floats);
    const buffer = matrix.#bytes.buffer as ArrayBuffer;
    RESERVED.set(buffer, matrix);
    return {
      rows: new Float32Array(buffer, 0, rows * matrix.#stride),
      codes: new Int8Array(buffer, matrix.#codesAt, rows * matrix.#codeBytes),
      scales: new Float32Array(buffer, matrix.#scalesAt, rows),
    };
  }

  /**
   * Sets the dimension of an empty matrix and makes room for `floats` / stride rows and an
   * eighth more (rows added after a restore do not first move the codes); the row count.
   */
  #shape(dimensions: number, floats: number): number {
    if (dimensions === 0) {
      if (floats !== 0) throw new Error("vector matrix image: sizes do not match");
      return 0;
    }
    this.#dimensions = dimensions;
    this.#stride = Math.ceil(dimensions / LANES) * LANES;
    this.#codeBytes = Math.ceil(dimensions / CODE_LANES) * CODE_LANES;
    const rows = floats / this.#stride;
    if (!Number.isInteger(rows)) throw new Error("vector matrix image: sizes do not match");
    this.#grow(Math.max(rows + (rows >> 3), INITIAL_ROWS));
    return rows;
  }

  /** Whether an image's arrays are exactly this reserved matrix's views. */
  #holdsInPlace(image: VectorsImage): boolean {
    const rows = image.scales.length;
    const buffer = this.#bytes.buffer;
    return (
      image.dimensions === this.#dimensions &&
      image.rows.byteOffset === 0 &&
      image.rows.length === rows * this.#stride &&
      image.codes.buffer === buffer &&
      image.codes.byteOffset === this.#codesAt &&
      image.codes.length === rows * this.#codeBytes &&
      image.scales.buffer === buffer &&
      image.scales.byteOffset === this.#scalesAt &&
      rows <= this.#capacity
    );
  }

  /** Stores a row; throws when its length differs from the first row's. */
  set(row: number, vector: readonly number[]): void {
    if (this.#dimensions === 0) {
      if (vector.length === 0) throw new Error("retrieval index: vector of 0 dimensions");
      this.#dimensions = vector.length;
      this.#stride = Math.ceil(vector.length / LANES) * LANES;
      this.#codeBytes = Math.ceil(vector.length / CODE_LANES) * CODE_LANES;
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
    const codeAt = this.#codesAt + row * this.#codeBytes;
    const stats = quantizeRow(
      this.#floats.subarray(at, at + this.#dimensions),
      new Int8Array(this.#bytes.buffer, codeAt, this.#codeBytes),
    );
    this.#floats[this.#scalesAt / 4 + row] = stats.scale;
    this.#maxResidual = Math.max(this.#maxResidual, stats.residual);
    this.#maxL1 = Math.max(this.#maxL1, stats.l1);
    this.#maxNorm = Math.max(this.#maxNorm, stats.norm);
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
    const codeMax = Math.min(
      QUERY_CODE_MAX,
      Math.floor((2 ** 31 - 1) / (ROW_CODE_MAX * this.#codeBytes)),
    );
    const { scale, norm } = quantizeQuery(
      query,
      new Int16Array(this.#bytes.buffer, this.#queryCodesAt, this.#codeBytes),
      codeMax,
    );
    this.#queryScale = scale;
    this.#queryNorm = norm;
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

  /**
   * The exact minimum and maximum similarity of the accepted rows while reading a quarter of
   * the bytes {@link scan} reads: every accepted row's similarity is approximated from int8
   * codes into {@link similarities} (each within the returned `slack` of its exact
   * {@link dot}), then only the rows that could hold the minimum or the maximum are computed
   * exactly. The caller computes {@link dot} for any row the slack cannot rule out.
   */
  boundedScan(accepted: Uint8Array, rowCount: number): BoundedScan {
    const kernel = this.#kernel;
    if (kernel === undefined || rowCount === 0) {
      return { min: Infinity, max: -Infinity, slack: 0 };
    }
    this.#bytes.set(accepted.subarray(0, rowCount), this.#maskAt);
    kernel.approximate(
      this.#codesAt,
      this.#scalesAt,
      this.#queryCodesAt,
      this.#maskAt,
      this.#outAt,
      rowCount,
      this.#codeBytes,
      this.#queryScale,
    );
    const low = kernel.min.value;
    const high = kernel.max.value;
    if (!(low <= high)) return { min: Infinity, max: -Infinity, slack: 0 };
    const slack = this.#slack();
    kernel.extremes(
      0,
      this.#queryAt,
      this.#maskAt,
      this.#outAt,
      rowCount,
      this.#stride * 4,
      high - 2 * slack,
      low + 2 * slack,
    );
    return { min: kernel.min.value, max: kernel.max.value, slack };
  }

  /**
   * A bound of |approximation − exact dot| for the current query and any stored row. With s
   * the row's scale, c its codes, e = row − c·s, d the query's codes and t their scale: the
   * exact value minus the approximation is Σ e·q + s·Σ c·(q − d·t), at most ‖e‖‖q‖ + (t/2)·Σ|c|·s;
   * the kernel's float32 sum is within (n/4 + 3)·2⁻²³·‖row‖‖q‖ of the exact value (n the padded
   * length), and the approximation's rounding to float32 adds 2⁻²³ of its magnitude.
   */
  #slack(): number {
    const queryNorm = this.#queryNorm;
    const summing = (this.#stride / LANES + 3) * 2 ** -23;
    let slack =
      this.#maxResidual * queryNorm +
      (this.#queryScale / 2) * this.#maxL1 +
      summing * this.#maxNorm * queryNorm;
    slack += 2 ** -23 * (this.#maxNorm * queryNorm + slack);
    slack = slack * (1 + 1e-6) + Number.MIN_VALUE;
    return Number.isNaN(slack) ? Infinity : slack;
  }

  /**
   * Moves rows to their new numbers (`newRow[old]`: distinct, below `rowCount`, -1 to drop). In
   * place while the rows still fill a quarter of the storage (no new memory, each row copied
   * once); into a new, smaller memory otherwise.
   */
  remap(newRow: Int32Array, rowCount: number): void {
    if (this.#stride === 0 || this.#kernel === undefined) return;
    if (rowCount >= this.#capacity / 4) {
      this.#permute(newRow, rowCount);
      return;
    }
    const old = this.#floats;
    const oldBytes = this.#bytes;
    const oldCodesAt = this.#codesAt;
    const oldScales = this.#scalesAt / 4;
    const stride = this.#stride;
    const codeBytes = this.#codeBytes;
    this.#kernel = undefined;
    this.#capacity = 0;
    this.#grow(Math.max(rowCount, INITIAL_ROWS));
    const scales = this.#scalesAt / 4;
    for (let from = 0; from < newRow.length; from += 1) {
      const to = newRow[from] as number;
      if (to < 0) continue;
      this.#floats.set(old.subarray(from * stride, (from + 1) * stride), to * stride);
      const codes = oldCodesAt + from * codeBytes;
      this.#bytes.set(oldBytes.subarray(codes, codes + codeBytes), this.#codesAt + to * codeBytes);
      this.#floats[scales + to] = old[oldScales + from] as number;
    }
  }

  /**
   * {@link remap} in place. The moves form chains, each starting at a row numbered past
   * `rowCount` (no row moves there) and ending on a dropped one, and cycles; each is walked once
   * and moved from its end backwards, so only a cycle needs a spare row (the query's region,
   * which a remap invalidates anyway).
   */
  #permute(newRow: Int32Array, rowCount: number): void {
    const done = new Uint8Array(newRow.length);
    const path = new Int32Array(newRow.length + 1);
    const walk = (start: number, cycle: boolean) => {
      let length = 0;
      let at = start;
      do {
        path[length++] = at;
        done[at] = 1;
        at = newRow[at] as number;
      } while (at >= 0 && at !== start);
      if (cycle) {
        this.#moveRow(path[length - 1] as number, SPARE);
        for (let i = length - 2; i >= 0; i -= 1) {
          this.#moveRow(path[i] as number, path[i + 1] as number);
        }
        this.#moveRow(SPARE, start);
      } else {
        // The last row of the path is dropped: its place takes the one before it, and so on.
        for (let i = length - 2; i >= 0; i -= 1) {
          this.#moveRow(path[i] as number, path[i + 1] as number);
        }
      }
    };
    for (let row = rowCount; row < newRow.length; row += 1) {
      if ((newRow[row] as number) >= 0) walk(row, false);
    }
    for (let row = 0; row < rowCount; row += 1) {
      const to = newRow[row] as number;
      if (done[row] === 1 || to < 0 || to === row) continue;
      walk(row, true);
    }
  }

  /** Copies a row (floats, codes, scale) over another; {@link SPARE} names the spare row. */
  #moveRow(from: number, to: number): void {
    const rowBytes = this.#stride * 4;
    const codeBytes = this.#codeBytes;
    const floatsFrom = this.#floatsAt(from);
    const codesFrom = this.#rowCodesAt(from);
    this.#bytes.copyWithin(this.#floatsAt(to), floatsFrom, floatsFrom + rowBytes);
    this.#bytes.copyWithin(this.#rowCodesAt(to), codesFrom, codesFrom + codeBytes);
    const scales = this.#scalesAt / 4;
    if (from === SPARE) this.#floats[scales + to] = this.#spareScale;
    else if (to === SPARE) this.#spareScale = this.#floats[scales + from] as number;
    else this.#floats[scales + to] = this.#floats[scales + from] as number;
  }

  /** Byte offset of a row's floats ({@link SPARE}: the query's region). */
  #floatsAt(row: number): number {
    return row === SPARE ? this.#queryAt : row * this.#stride * 4;
  }

  /** Byte offset of a row's codes ({@link SPARE}: the query codes' region). */
  #rowCodesAt(row: number): number {
    return row === SPARE ? this.#queryCodesAt : this.#codesAt + row * this.#codeBytes;
  }

  /**
   * Room for `rows` rows (a new kernel instance the first time and after a remap). The memory
   * holds, in order: the float rows, the query, the mask, the similarities, the row codes, the
   * row scales and the query codes; growing moves the codes and scales up to their new places.
   */
  #grow(rows: number): void {
    const rowBytes = this.#stride * 4;
    const codeBytes = this.#codeBytes;
    const queryAt = rows * rowBytes;
    const maskAt = queryAt + rowBytes;
    const outAt = maskAt + Math.ceil(rows / 16) * 16;
    const codesAt = outAt + Math.ceil(rows / 4) * 16;
    const scalesAt = codesAt + rows * codeBytes;
    const queryCodesAt = scalesAt + rows * 4;
    const needed = queryCodesAt + codeBytes * 2;
    const kernel = this.#kernel ?? instantiateKernel();
    const have = kernel.memory.buffer.byteLength;
    if (needed > have) kernel.memory.grow(Math.ceil((needed - have) / PAGE_BYTES));
    const buffer = kernel.memory.buffer;
    const bytes = new Uint8Array(buffer);
    if (this.#kernel !== undefined && this.#capacity > 0) {
      // Later regions first: each moves up, past where the earlier ones will land.
      const scaleBytes = this.#capacity * 4;
      bytes.copyWithin(scalesAt, this.#scalesAt, this.#scalesAt + scaleBytes);
      bytes.copyWithin(codesAt, this.#codesAt, this.#codesAt + this.#capacity * codeBytes);
    }
    this.#kernel = kernel;
    this.#capacity = rows;
    this.#queryAt = queryAt;
    this.#maskAt = maskAt;
    this.#outAt = outAt;
    this.#codesAt = codesAt;
    this.#scalesAt = scalesAt;
    this.#queryCodesAt = queryCodesAt;
    this.#floats = new Float32Array(buffer);
    this.#bytes = bytes;
    this.#similarities = new Float32Array(buffer, outAt, rows);
  }
}
