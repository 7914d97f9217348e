/** Options of {@link TokenBuckets}. */
export interface TokenBucketOptions {
  /** Tokens added per second to each bucket (the sustained request rate). */
  readonly ratePerSecond: number;
  /** A bucket's size: the most requests at once after a quiet spell. A new bucket starts full. */
  readonly burst: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * One token bucket per caller: each request takes a token; tokens come back at
 * `ratePerSecond` up to `burst`. Exact under concurrency (Node runs one take at a time), so
 * `burst` simultaneous requests from a full bucket pass and the next is refused. Buckets are
 * kept per caller name; callers are credentials (a few keys and the operator), so the map stays
 * small.
 *
 * @example
 * const buckets = new TokenBuckets({ ratePerSecond: 10, burst: 20 });
 * buckets.take("key:3f9c0a1b2c3d4e5f"); // 0: allowed; otherwise the seconds to wait
 */
export class TokenBuckets {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: TokenBucketOptions) {
    if (!(options.ratePerSecond > 0) || !(options.burst >= 1)) {
      throw new Error("TokenBuckets needs ratePerSecond > 0 and burst >= 1");
    }
    this.#rate = options.ratePerSecond;
    this.#burst = options.burst;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Takes a token of `caller`'s bucket: 0 when it had one, else whole seconds until it will. */
  take(caller: string): number {
    const now = this.#now();
    let bucket = this.#buckets.get(caller);
    if (bucket === undefined) {
      bucket = { tokens: this.#burst, at: now };
      this.#buckets.set(caller, bucket);
    } else {
      bucket.tokens = Math.min(
        this.#burst,
        bucket.tokens + ((now - bucket.at) / 1000) * this.#rate,
      );
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate));
  }

  /** Forgets a caller's bucket (a revoked key). */
  forget(caller: string): void {
    this.#buckets.delete(caller);
  }
}
