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
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task for `key` has settled; resolves to its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    // Forget the key once nothing is queued behind this task, so the map does not grow forever.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Number of keys with work queued or running (for tests and diagnostics). */
  get size(): number {
    return this.#tails.size;
  }
}
