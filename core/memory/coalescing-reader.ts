/** Options of {@link CoalescingReader}. */
export interface CoalescingReaderOptions {
  /** Most distinct keys in one call of the batch read; the rest wait for the next. Default 256. */
  readonly maxKeys?: number;
}

type Waiter<V> = { resolve(value: V): void; reject(error: unknown): void };

/**
 * Merges concurrent reads by key into few calls of a batch read, with at most one call in
 * flight: keys asked for while a call runs are queued, and the next call asks for all of them
 * at once. Each caller gets exactly the value for its key (callers of the same key share one
 * slot of the call); a failed call rejects every caller whose key it held, and only those.
 *
 * A read is always answered by a call that started after it was asked for (never by the call
 * already in flight), so it sees every write that completed before it. The memory service uses
 * it for duplicate lookups: many concurrent `remember` calls then cost the store one metadata
 * read per round instead of one each, and the store (Chroma, CPU-bound) spends its time on
 * writes instead.
 *
 * `readMany` gets distinct keys and must resolve with one value per key, in the same order.
 *
 * @example
 * const byHash = new CoalescingReader((hashes: readonly string[]) => lookUpAll(hashes));
 * const [a, b] = await Promise.all([byHash.read("h1"), byHash.read("h2")]); // one lookUpAll call
 */
export class CoalescingReader<K, V> {
  readonly #readMany: (keys: readonly K[]) => Promise<readonly V[]>;
  readonly #maxKeys: number;
  /** Keys not yet taken into a call, with their callers, in the order first asked for. */
  readonly #queued = new Map<K, Waiter<V>[]>();
  #running = false;

  constructor(
    readMany: (keys: readonly K[]) => Promise<readonly V[]>,
    options: CoalescingReaderOptions = {},
  ) {
    this.#readMany = readMany;
    this.#maxKeys = options.maxKeys ?? 256;
    if (!Number.isInteger(this.#maxKeys) || this.#maxKeys < 1) {
      throw new Error(`CoalescingReader: maxKeys must be a positive integer, got ${this.#maxKeys}`);
    }
  }

  /** The value for `key`, from the next batch read (which starts at once when none is running). */
  read(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const waiters = this.#queued.get(key);
      if (waiters === undefined) this.#queued.set(key, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      if (!this.#running) {
        this.#running = true;
        // A microtask later, so reads asked for in the same synchronous step share the first call.
        void Promise.resolve().then(() => this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#queued.size > 0) {
      const round = new Map<K, Waiter<V>[]>();
      for (const [key, waiters] of this.#queued) {
        if (round.size === this.#maxKeys) break;
        round.set(key, waiters);
      }
      for (const key of round.keys()) this.#queued.delete(key);
      await this.#call(round);
    }
    this.#running = false;
  }

  async #call(round: ReadonlyMap<K, readonly Waiter<V>[]>): Promise<void> {
    const keys = [...round.keys()];
    let values: readonly V[];
    try {
      values = await this.#readMany(keys);
      if (values.length !== keys.length) {
        throw new Error(
          `CoalescingReader: the batch read returned ${values.length} values for ${keys.length} keys`,
        );
      }
    } catch (error) {
      for (const waiters of round.values()) for (const waiter of waiters) waiter.reject(error);
      return;
    }
    keys.forEach((key, i) => {
      for (const waiter of round.get(key) ?? []) waiter.resolve(values[i] as V);
    });
  }
}
