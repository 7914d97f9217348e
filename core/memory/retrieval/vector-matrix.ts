const INITIAL_ROWS = 64;

/**
 * Document vectors as the rows of one growable `Float32Array` (4 bytes a number: 100k × 100
 * dimensions is 40 MB, and a scan over all of them is one tight loop over contiguous memory).
 * The dimension is fixed by the first row.
 *
 * @example
 * const matrix = new VectorMatrix();
 * matrix.set(0, [0.6, 0.8]);
 * matrix.dot(0, Float32Array.of(1, 0)); // ≈ 0.6
 */
export class VectorMatrix {
  #dimensions = 0;
  #data = new Float32Array(0);

  /** Length of every row; 0 before the first. */
  get dimensions(): number {
    return this.#dimensions;
  }

  /** Stores a row; throws when its length differs from the first row's. */
  set(row: number, vector: readonly number[]): void {
    if (this.#dimensions === 0) this.#dimensions = vector.length;
    if (vector.length !== this.#dimensions || vector.length === 0) {
      throw new Error(
        `retrieval index: vector of ${vector.length} dimensions, expected ${this.#dimensions}`,
      );
    }
    const needed = (row + 1) * this.#dimensions;
    if (needed > this.#data.length) {
      const grown = new Float32Array(
        Math.max(needed, this.#data.length * 2, INITIAL_ROWS * this.#dimensions),
      );
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data.set(vector, row * this.#dimensions);
  }

  /** A query vector in the rows' precision; throws on a dimension mismatch. */
  queryVector(vector: readonly number[]): Float32Array {
    if (this.#dimensions !== 0 && vector.length !== this.#dimensions) {
      throw new Error(
        `retrieval index: query vector of ${vector.length} dimensions, expected ${this.#dimensions}`,
      );
    }
    return Float32Array.from(vector);
  }

  /** The dot product of a row and a query vector (the cosine when both are unit vectors). */
  dot(row: number, query: Float32Array): number {
    const data = this.#data;
    const d = this.#dimensions;
    return dotAt(data, row * d, query, d);
  }

  /**
   * Dot products of a query with every row `r < rowCount` where `accepted[r] === 1`, into `out[r]`
   * (others untouched); returns their minimum and maximum (`Infinity`/`-Infinity` when none).
   * The one hot loop of a query: same summation order as {@link dot}, so the same floats.
   */
  scan(
    query: Float32Array,
    accepted: Uint8Array,
    rowCount: number,
    out: Float64Array,
  ): { min: number; max: number } {
    const data = this.#data;
    const d = this.#dimensions;
    let min = Infinity;
    let max = -Infinity;
    for (let row = 0, offset = 0; row < rowCount; row += 1, offset += d) {
      if (accepted[row] !== 1) continue;
      const sum = dotAt(data, offset, query, d);
      out[row] = sum;
      if (sum < min) min = sum;
      if (sum > max) max = sum;
    }
    return { min, max };
  }

  /** Moves rows to their new numbers (`newRow[old]`, -1 to drop); keeps order, shrinks storage. */
  remap(newRow: Int32Array, rowCount: number): void {
    const d = this.#dimensions;
    const data = new Float32Array(Math.max(rowCount, INITIAL_ROWS) * d);
    for (let old = 0; old < newRow.length; old += 1) {
      const to = newRow[old] as number;
      if (to >= 0) data.set(this.#data.subarray(old * d, (old + 1) * d), to * d);
    }
    this.#data = data;
  }
}

/**
 * `Σ data[offset + j] · query[j]`, summed strictly left to right (unrolled by four for speed; one
 * accumulator keeps the order, so every caller gets the same floats).
 */
function dotAt(data: Float32Array, offset: number, query: Float32Array, d: number): number {
  let sum = 0;
  let j = 0;
  for (; j + 4 <= d; j += 4) {
    const o = offset + j;
    sum += (data[o] as number) * (query[j] as number);
    sum += (data[o + 1] as number) * (query[j + 1] as number);
    sum += (data[o + 2] as number) * (query[j + 2] as number);
    sum += (data[o + 3] as number) * (query[j + 3] as number);
  }
  for (; j < d; j += 1) sum += (data[offset + j] as number) * (query[j] as number);
  return sum;
}
