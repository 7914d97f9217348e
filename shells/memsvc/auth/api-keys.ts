import { timingSafeEqual } from "node:crypto";
import type { ApiKeyStore, StoredApiKey } from "../../../core/ports/api-key-store.js";
import type { Principal } from "../http/principal.js";
import { hashSecret, newKey, parseKey, secretDigest, secretMatches } from "./key-secret.js";

/**
 * How long a verified key is trusted without reading the store again: the longest a key revoked
 * through another replica keeps working here (docs/tenants.md). Revocation through this process
 * takes effect at once.
 */
export const VERIFIED_CACHE_MS = 5_000;

/** A key as the API shows it: everything but the key and its hash. */
export interface ApiKeyView {
  readonly id: string;
  readonly tenant: string;
  readonly read_only: boolean;
  readonly expires_at?: string;
  readonly created_at: string;
}

/** What {@link ApiKeys.verify} found: the key's principal, or why it was refused. */
export type KeyCheck =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: "invalid" | "expired" };

interface Verified {
  readonly digest: Buffer;
  readonly secretHash: string;
  readonly principal: Principal;
  readonly expiresAtMs: number | undefined;
  checkedAtMs: number;
}

/** Options of {@link ApiKeys}. */
export interface ApiKeysOptions {
  readonly store: ApiKeyStore;
  /** Milliseconds since the epoch (default `Date.now`): expiry and the cache window. */
  readonly now?: () => number;
  /** Default {@link VERIFIED_CACHE_MS}. */
  readonly cacheMs?: number;
}

/**
 * The tenants' API keys (issue 23): made, listed, revoked and verified. A key is
 * `msk_<id>_<secret>`; the store keeps the id and a salted scrypt hash of the secret. Verifying
 * looks the id up and checks the secret against the hash, then remembers a SHA-256 digest of the
 * secret for {@link VERIFIED_CACHE_MS}: within that window a request with the key costs one
 * digest and a constant-time compare ({@link cached}, synchronous, what the fast lane uses), a
 * wrong secret for a cached id is refused without scrypt, and after it one store read (no scrypt)
 * confirms the key still exists. Concurrent first uses of a key share one scrypt.
 *
 * @example
 * const keys = new ApiKeys({ store: new InMemoryApiKeyStore() });
 * const { key } = await keys.create({ tenant: "acme", readOnly: false });
 * (await keys.verify(key)).ok; // true
 */
export class ApiKeys {
  readonly #store: ApiKeyStore;
  readonly #now: () => number;
  readonly #cacheMs: number;
  readonly #verified = new Map<string, Verified>();
  readonly #inFlight = new Map<string, Promise<KeyCheck>>();
  /** Bumped as a revocation starts and ends: a check overlapping one does not cache. */
  #revocations = 0;

  constructor(options: ApiKeysOptions) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
    this.#cacheMs = options.cacheMs ?? VERIFIED_CACHE_MS;
  }

  /** A new key for `tenant`; the answer is the only place the key ever appears. */
  async create(input: {
    readonly tenant: string;
    readonly readOnly: boolean;
    readonly expiresAt?: string | undefined;
  }): Promise<ApiKeyView & { readonly key: string }> {
    const { id, secret, key } = newKey();
    const record: StoredApiKey = {
      id,
      tenant: input.tenant,
      readOnly: input.readOnly,
      ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
      createdAt: new Date(this.#now()).toISOString(),
      secretHash: await hashSecret(secret),
    };
    await this.#store.add(record);
    return { ...viewOf(record), key };
  }

  /** Every key, oldest first, optionally of one tenant; never a key or a hash. */
  async list(tenant?: string): Promise<ApiKeyView[]> {
    const all = await this.#store.list();
    return all.filter((key) => tenant === undefined || key.tenant === tenant).map(viewOf);
  }

  /** Revokes a key: refused here at once, by other replicas within the cache window. */
  async revoke(id: string): Promise<boolean> {
    this.#revocations += 1;
    this.#verified.delete(id);
    const removed = await this.#store.remove(id);
    // A check that started meanwhile may have read the key before the removal landed: it is
    // neither cached nor shared with the requests that come after the revocation.
    this.#revocations += 1;
    this.#verified.delete(id);
    for (const flight of this.#inFlight.keys()) {
      if (flight.startsWith(`${id}:`)) this.#inFlight.delete(flight);
    }
    return removed;
  }

  /**
   * The answer for a presented key when it is known without the store: a cached key's principal,
   * an expiry, or a wrong secret for a cached id; undefined when the store must be asked.
   */
  cached(presented: string): KeyCheck | undefined {
    const parts = parseKey(presented);
    if (parts === undefined) return INVALID;
    const entry = this.#verified.get(parts.id);
    if (entry === undefined) return undefined;
    if (!timingSafeEqual(secretDigest(parts.secret), entry.digest)) return INVALID;
    const now = this.#now();
    if (entry.expiresAtMs !== undefined && now >= entry.expiresAtMs) return EXPIRED;
    return now - entry.checkedAtMs < this.#cacheMs
      ? { ok: true, principal: entry.principal }
      : undefined;
  }

  /** The principal of a presented key, or why it is refused (unknown, revoked, wrong, expired). */
  verify(presented: string): Promise<KeyCheck> {
    const quick = this.cached(presented);
    if (quick !== undefined) return Promise.resolve(quick);
    const parts = parseKey(presented) as { id: string; secret: string };
    const digest = secretDigest(parts.secret);
    const flight = `${parts.id}:${digest.toString("hex")}`;
    let pending = this.#inFlight.get(flight);
    if (pending === undefined) {
      const check: Promise<KeyCheck> = this.#check(parts.id, parts.secret, digest).finally(() => {
        if (this.#inFlight.get(flight) === check) this.#inFlight.delete(flight);
      });
      pending = check;
      this.#inFlight.set(flight, pending);
    }
    return pending;
  }

  async #check(id: string, secret: string, digest: Buffer): Promise<KeyCheck> {
    const revocations = this.#revocations;
    const record = await this.#store.get(id);
    if (record === undefined) {
      this.#verified.delete(id);
      return INVALID;
    }
    const known = this.#verified.get(id);
    const confirmed =
      known !== undefined &&
      known.secretHash === record.secretHash &&
      timingSafeEqual(digest, known.digest);
    if (!confirmed && !(await secretMatches(secret, record.secretHash))) return INVALID;
    const expiresAtMs = record.expiresAt === undefined ? undefined : Date.parse(record.expiresAt);
    const now = this.#now();
    if (expiresAtMs !== undefined && now >= expiresAtMs) return EXPIRED;
    const principal: Principal = Object.freeze({
      tenant: record.tenant,
      readOnly: record.readOnly,
      operator: false,
      keyId: record.id,
    });
    if (revocations === this.#revocations) {
      this.#verified.set(id, {
        digest,
        secretHash: record.secretHash,
        principal,
        expiresAtMs,
        checkedAtMs: now,
      });
    }
    return { ok: true, principal };
  }
}

const INVALID: KeyCheck = Object.freeze({ ok: false, reason: "invalid" });
const EXPIRED: KeyCheck = Object.freeze({ ok: false, reason: "expired" });

function viewOf(record: StoredApiKey): ApiKeyView {
  return {
    id: record.id,
    tenant: record.tenant,
    read_only: record.readOnly,
    ...(record.expiresAt === undefined ? {} : { expires_at: record.expiresAt }),
    created_at: record.createdAt,
  };
}
