/**
 * One API key as stored (issue 23): what it grants and the hash of its secret, never the key
 * itself. The shell makes the key and the hash; a store only keeps records.
 *
 * @example
 * const key: StoredApiKey = {
 *   id: "3f9c0a1b2c3d4e5f",
 *   tenant: "acme",
 *   readOnly: false,
 *   createdAt: "2026-11-28T09:00:00.000Z",
 *   secretHash: "scrypt$16384$8$1$<salt>$<hash>",
 * };
 */
export interface StoredApiKey {
  /** Public, random, unique: the key's name in lists, logs and `DELETE /v1/keys/{id}`. */
  readonly id: string;
  /** The tenant every request with the key acts inside. */
  readonly tenant: string;
  /** Reads only (search, recall, list, get, stats, export). */
  readonly readOnly: boolean;
  /** When the key stops working (ISO 8601, UTC); undefined: never. */
  readonly expiresAt?: string | undefined;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  /** A slow, salted hash of the key's secret in a self-describing text; never the secret. */
  readonly secretHash: string;
}

/**
 * Where API keys live: with the data (a file in the embedded store's data directory, a table of
 * the PostgreSQL store). A write is durable when its promise resolves. Revocation removes the
 * record, so a revoked key is indistinguishable from one that never existed.
 *
 * @example
 * await keys.add(record);
 * (await keys.get(record.id))?.tenant; // "acme"
 * await keys.remove(record.id); // true
 */
export interface ApiKeyStore {
  /** Stores a new key; rejects when its id is already stored (nothing is replaced). */
  add(key: StoredApiKey): Promise<void>;
  /** The key with this id, or undefined. */
  get(id: string): Promise<StoredApiKey | undefined>;
  /** Every stored key, oldest first (then by id). */
  list(): Promise<StoredApiKey[]>;
  /** Removes the key; false when there was none with this id. */
  remove(id: string): Promise<boolean>;
}
