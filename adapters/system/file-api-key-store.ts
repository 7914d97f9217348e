import { readFile } from "node:fs/promises";
import { AgentServicesError } from "../../core/errors.js";
import type { ApiKeyStore, StoredApiKey } from "../../core/ports/api-key-store.js";
import { replaceFileDurably } from "./sync-directory.js";

/** The file's shape: a version, then every key. */
interface KeyFile {
  readonly version: 1;
  readonly keys: StoredApiKey[];
}

/**
 * {@link ApiKeyStore} in one JSON file in the embedded store's data directory (mode 0600), held
 * in memory and rewritten whole on every change with the journal's crash safety: written to a
 * temporary file, synced, renamed over the old one, then the directory synced. A crash leaves
 * the old file or the new one, never half of one; a change resolves only once it is durable.
 * Keys are few (one per client), so the whole-file rewrite costs nothing that matters.
 *
 * One process owns a data directory (its lock), so the memory copy is never stale. A file that
 * does not parse is an error at first use (naming the file), never an empty key list.
 *
 * @example
 * const keys = new FileApiKeyStore(join(dataDir, "api-keys.json"));
 * await keys.add(record);
 */
export class FileApiKeyStore implements ApiKeyStore {
  readonly #path: string;
  #keys: Promise<Map<string, StoredApiKey>> | undefined;
  /** Changes run one after the other: each rewrites the file from the map. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.#path = path;
  }

  async add(key: StoredApiKey): Promise<void> {
    await this.#change((keys) => {
      if (keys.has(key.id)) throw new Error(`API key ${key.id} already exists`);
      keys.set(key.id, { ...key });
      return true;
    });
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const key = (await this.#load()).get(id);
    return key === undefined ? undefined : { ...key };
  }

  async list(): Promise<StoredApiKey[]> {
    return [...(await this.#load()).values()].map((key) => ({ ...key })).sort(oldestFirst);
  }

  remove(id: string): Promise<boolean> {
    return this.#change((keys) => keys.delete(id));
  }

  /** Applies `edit` to the map and, when it changed something, makes the new file durable. */
  #change(edit: (keys: Map<string, StoredApiKey>) => boolean): Promise<boolean> {
    const run = this.#queue.then(async () => {
      const keys = await this.#load();
      const next = new Map(keys);
      if (!edit(next)) return false;
      await this.#write([...next.values()].sort(oldestFirst));
      this.#keys = Promise.resolve(next);
      return true;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #load(): Promise<Map<string, StoredApiKey>> {
    this.#keys ??= this.#read().catch((error: unknown) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  async #read(): Promise<Map<string, StoredApiKey>> {
    let text: string;
    try {
      text = await readFile(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw this.#unusable(error);
    }
    try {
      const file = JSON.parse(text) as KeyFile;
      if (file.version !== 1 || !Array.isArray(file.keys)) throw new Error("not a key file");
      return new Map(file.keys.map((key) => [key.id, key]));
    } catch (error) {
      throw this.#unusable(error);
    }
  }

  async #write(keys: StoredApiKey[]): Promise<void> {
    const file: KeyFile = { version: 1, keys };
    await replaceFileDurably(this.#path, (handle) =>
      handle.writeFile(`${JSON.stringify(file, null, 1)}\n`, "utf8"),
    );
  }

  #unusable(error: unknown): AgentServicesError {
    return new AgentServicesError(
      "store_unavailable",
      `API key file ${this.#path} cannot be read (${error instanceof Error ? error.message : String(error)}); restore it from a backup or remove it (every key is then lost)`,
      { cause: error },
    );
  }
}

function oldestFirst(a: StoredApiKey, b: StoredApiKey): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
