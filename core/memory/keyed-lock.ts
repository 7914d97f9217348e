/**
 * Serialises async work per key inside one process, by pure promise chaining: a task for a key
 * starts only after every earlier task for the same key has settled. Tasks for different keys
 * run concurrently. A failed task does not poison the key for the tasks after it.
 *
 * The memory service needs it for read-modify-write on store metadata (access counts, tag
 * merges) and for "find a duplicate, else insert", which the vector store cannot do atomically.
 *
 * @example
 * const lock = new KeyedLock();
 * await Promise.all([lock.run("a", incrementA), lock.run("a", incrementA)]); // one after the other
 * await lock.runAll(["a", "b"], incrementBoth); // after every earlier task of "a" or "b"
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task for `key` has settled; resolves to its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.runAll([key], task);
  }

  /**
   * Runs `task` holding every key at once: it starts when every earlier task for any of `keys`
   * has settled, and later tasks for any of them wait for it.
   *
   * The task is queued on all its keys in one synchronous step, so it only ever waits for tasks
   * queued before it: the waits form no cycle, and two multi-key tasks cannot deadlock whatever
   * the order of their keys (unlike taking the keys one by one, which needs a global order).
   */
  runAll<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const earlier = unique.flatMap((key) => this.#tails.get(key) ?? []);
    // Tails never reject (see below), so this waits for all of them to settle.
    const previous = earlier.length === 1 ? earlier[0] : Promise.all(earlier);
    const result = (previous ?? Promise.resolve()).then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    for (const key of unique) this.#tails.set(key, tail);
    // Forget a key once nothing is queued behind this task, so the map does not grow forever.
    void tail.then(() => {
      for (const key of unique) if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /**
   * Whether a task for `key` is queued or running (a try-lock's "taken").
   *
   * @example
   * if (!lock.busy("a")) insertWithoutWaiting();
   */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }

  /** Number of keys with work queued or running (for tests and diagnostics). */
  get size(): number {
    return this.#tails.size;
  }
}
