/**
 * The changeable numbers of the `MemoryEngine`'s held memories, one row each in typed columns.
 * A number in an object field is a heap box of its own (~12 bytes and one more object for the
 * garbage collector), so five of them per memory doubled the cost of holding a restored memory;
 * in columns a restore copies the image's arrays whole. Rows of memories that left are reused.
 */

/** The numbers of one row, as the image keeps them (see `EngineImage`). */
export interface HeldColumnArrays {
  readonly confidence: Float64Array<ArrayBuffer>;
  readonly updated: Float64Array<ArrayBuffer>;
  readonly lastAccessed: Float64Array<ArrayBuffer>;
  readonly accessCount: Float64Array<ArrayBuffer>;
  readonly expires: Float64Array<ArrayBuffer>;
}

/**
 * Typed columns with a free list of rows.
 *
 * @example
 * const columns = new HeldColumns();
 * const row = columns.take();
 * columns.confidence[row] = 0.9;
 * columns.release(row); // the next take() may return it
 */
export class HeldColumns implements HeldColumnArrays {
  confidence: Float64Array<ArrayBuffer>;
  updated: Float64Array<ArrayBuffer>;
  lastAccessed: Float64Array<ArrayBuffer>;
  accessCount: Float64Array<ArrayBuffer>;
  expires: Float64Array<ArrayBuffer>;
  /** Rows handed out so far (released ones included). */
  #used = 0;
  readonly #free: number[] = [];

  constructor(capacity = 64) {
    this.confidence = new Float64Array(capacity);
    this.updated = new Float64Array(capacity);
    this.lastAccessed = new Float64Array(capacity);
    this.accessCount = new Float64Array(capacity);
    this.expires = new Float64Array(capacity);
  }

  /** Columns whose rows 0 to `count` - 1 are copies of `arrays`' (all taken), with room to grow. */
  static of(arrays: HeldColumnArrays, count: number): HeldColumns {
    const columns = new HeldColumns(Math.max(64, count + (count >> 2)));
    for (const name of COLUMNS) columns[name].set(arrays[name].subarray(0, count));
    columns.#used = count;
    return columns;
  }

  /** How many rows were handed out so far (released ones included): every row is below it. */
  get rows(): number {
    return this.#used;
  }

  /** A row for a new memory (its numbers are whatever they were: set them all). */
  take(): number {
    const free = this.#free.pop();
    if (free !== undefined) return free;
    if (this.#used === this.confidence.length) this.#grow(this.#used * 2);
    return this.#used++;
  }

  /** Gives back the row of a memory that left (nothing may read it after). */
  release(row: number): void {
    this.#free.push(row);
  }

  #grow(capacity: number): void {
    for (const name of COLUMNS) {
      const grown = new Float64Array(capacity);
      grown.set(this[name]);
      this[name] = grown;
    }
  }
}

const COLUMNS = ["confidence", "updated", "lastAccessed", "accessCount", "expires"] as const;
