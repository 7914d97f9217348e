import type { ApiKeyStore, StoredApiKey } from "../ports/api-key-store.js";

/**
 * {@link ApiKeyStore} in a map (copies in and out, so callers cannot change what is stored),
 * with a count of reads for tests of caching.
 *
 * @example
 * const keys = new InMemoryApiKeyStore();
 * await keys.add({ id: "k1", tenant: "acme", readOnly: false, createdAt, secretHash });
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly #keys = new Map<string, StoredApiKey>();
  /** How many times `get` was called. */
  reads = 0;

  add(key: StoredApiKey): Promise<void> {
    if (this.#keys.has(key.id)) {
      return Promise.reject(new Error(`API key ${key.id} already exists`));
    }
    this.#keys.set(key.id, { ...key });
    return Promise.resolve();
  }

  get(id: string): Promise<StoredApiKey | undefined> {
    this.reads += 1;
    const key = this.#keys.get(id);
    return Promise.resolve(key === undefined ? undefined : { ...key });
  }

  list(): Promise<StoredApiKey[]> {
    return Promise.resolve([...this.#keys.values()].map((key) => ({ ...key })).sort(byAge));
  }

  remove(id: string): Promise<boolean> {
    return Promise.resolve(this.#keys.delete(id));
  }
}

/**
 * Oldest first, then by id: the order of {@link ApiKeyStore.list}.
 *
 * @example
 * keys.sort(byAge);
 */
export function byAge(a: StoredApiKey, b: StoredApiKey): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
