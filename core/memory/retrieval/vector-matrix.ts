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
    const offset = row * d;
    let sum = 0;
    for (let j = 0; j < d; j += 1) sum += (data[offset + j] as number) * (query[j] as number);
    return sum;
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
