import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** What every API key starts with, so a leaked one is recognisable (secret scanners, logs). */
export const KEY_PREFIX = "msk";

/** scrypt's cost: N = 2^14, r = 8, p = 1 (16 MiB, tens of ms of one core; OWASP's minimum). */
const SCRYPT = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const HASH_BYTES = 32;
const KEY_SHAPE = /^msk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A key taken apart: its public id and its secret. */
export interface KeyParts {
  readonly id: string;
  readonly secret: string;
}

/**
 * A new key: 64 random bits of id (public: lists, logs, revocation) and 256 random bits of
 * secret, as `msk_<16 hex>_<43 base64url>`.
 *
 * @example
 * const { id, secret, key } = newKey(); // key = `msk_${id}_${secret}`
 */
export function newKey(): KeyParts & { readonly key: string } {
  const id = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  return { id, secret, key: `${KEY_PREFIX}_${id}_${secret}` };
}

/**
 * The id and secret of a presented key, or undefined when it does not have a key's shape.
 *
 * @example
 * parseKey("msk_0123456789abcdef_" + "A".repeat(43))?.id; // "0123456789abcdef"
 * parseKey("s3cret"); // undefined
 */
export function parseKey(presented: string): KeyParts | undefined {
  const match = KEY_SHAPE.exec(presented);
  return match === null ? undefined : { id: match[1] as string, secret: match[2] as string };
}

/**
 * The stored form of a secret: `scrypt$N$r$p$<salt>$<hash>` with a fresh 16-byte salt. Slow on
 * purpose; the verified cache (api-keys.ts) keeps it off the hot path.
 *
 * @example
 * const secretHash = await hashSecret(secret);
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p);
  return [
    "scrypt",
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString("base64url"),
    hash.toString("base64url"),
  ].join("$");
}

/**
 * Whether `secret` is the one `stored` was made from, compared in constant time; false for a
 * stored text that is not a hash this code makes.
 *
 * @example
 * await secretMatches(secret, record.secretHash); // true
 */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  if (expected.length !== HASH_BYTES) return false;
  const actual = await derive(
    secret,
    Buffer.from(salt, "base64url"),
    Number(n),
    Number(r),
    Number(p),
  );
  return timingSafeEqual(actual, expected);
}

/**
 * A fast digest of a secret for the verified cache: the cache holds this, never the secret.
 *
 * @example
 * timingSafeEqual(secretDigest(secret), cached.digest);
 */
export function secretDigest(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

function derive(secret: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, HASH_BYTES, { N, r, p, maxmem: SCRYPT.maxmem }, (error, key) => {
      if (error === null) resolve(key);
      else reject(error);
    });
  });
}
