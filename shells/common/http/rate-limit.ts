import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import type { EdgeConcern } from "./edge.js";
import { nodeBindingsOf } from "./framework-internals.js";
import type { TokenBuckets } from "./token-buckets.js";

/** Options of {@link rateLimitConcern}. */
export interface RateLimitOptions {
  readonly buckets: TokenBuckets;
  /** The caller of the request being served (runs after the service's caller check). */
  readonly callerOf: (c: Context) => string;
  /** The JSON body of the 429 answer, in the service's own error shape. */
  readonly body: (retryAfterSeconds: number) => unknown;
  /** Exact paths whose `GET` and `HEAD` take no token (probes: `/healthz`); default none. */
  readonly openPaths?: readonly string[];
}

/**
 * The `rate-limit` edge concern: a token per request from the caller's bucket
 * ({@link TokenBuckets}), else 429 with `Retry-After` (whole seconds) and the service's error
 * body. Mounted after the caller check. The lane takes the token of the requests it admits and
 * marks them, so a request it then hands over to the app (a refusal) does not pay twice.
 *
 * @example
 * const concern = rateLimitConcern({ buckets, callerOf: () => "operator", body: (s) => ({ error: `retry in ${s} s` }) });
 */
export function rateLimitConcern(options: RateLimitOptions): EdgeConcern {
  const { buckets } = options;
  const taken = new WeakSet<IncomingMessage>();
  const open = new Set(options.openPaths ?? []);
  const middleware: MiddlewareHandler = async (c, next) => {
    const incoming = nodeBindingsOf(c).incoming;
    const probe = open.has(c.req.path) && (c.req.method === "GET" || c.req.method === "HEAD");
    if (probe || (incoming !== undefined && taken.has(incoming))) {
      await next();
      return;
    }
    const wait = buckets.take(options.callerOf(c));
    if (wait === 0) {
      await next();
      return;
    }
    return new Response(JSON.stringify(options.body(wait)), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": String(wait) },
    });
  };
  return {
    name: "rate-limit",
    middleware,
    lane: {
      take: (caller, req) => {
        if (buckets.take(caller) !== 0) return false;
        taken.add(req);
        return true;
      },
    },
  };
}
