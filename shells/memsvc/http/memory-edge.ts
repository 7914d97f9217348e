import type { Hono } from "hono";
import { Edge } from "../../common/http/edge.js";
import { methodCheckConcern } from "../../common/http/method-check.js";
import { originCheckConcern, type OriginPolicy } from "../../common/http/origin-check.js";
import { requestIdConcern } from "../../common/http/request-id.js";
import { requestLogConcern } from "../../common/http/request-log.js";
import type { Logger } from "../../common/logger.js";
import type { ServiceMetrics } from "../../common/service-metrics.js";
import type { ApiKeys } from "../auth/api-keys.js";
import { CallerAuthenticator } from "../auth/caller-authenticator.js";
import { callerAuthConcern, callerName } from "./caller-auth.js";
import { rateLimitConcern } from "../../common/http/rate-limit.js";
import { TokenBuckets } from "../../common/http/token-buckets.js";
import { principalOf } from "./principal.js";

/** What {@link memoryEdge} needs of the app's options. */
export interface MemoryEdgeOptions {
  readonly logger: Logger;
  readonly metrics?: ServiceMetrics | undefined;
  readonly authToken?: string | undefined;
  /** The tenants' API keys (none: only the operator token authenticates). */
  readonly keys?: ApiKeys | undefined;
  /** A request rate per key (and for the operator); none: unlimited. */
  readonly rateLimit?: RequestRateLimit | undefined;
  /** The `Host`/`Origin` allow-list (DNS rebinding); without it both are served as they come. */
  readonly origins?: OriginPolicy | undefined;
}

/**
 * A token bucket per caller: `requestsPerSecond` sustained, `burst` at once (`api.rate_limit`).
 *
 * @example
 * const limit: RequestRateLimit = { requestsPerSecond: 10, burst: 20 };
 */
export interface RequestRateLimit {
  readonly requestsPerSecond: number;
  readonly burst: number;
}

/**
 * The memory API's edge concerns, in the order the app runs them: request id, request log and
 * metrics, the `Host`/`Origin` check (421/403, with a policy), the caller (the operator token or
 * a tenant's API key; off without a token; `GET /healthz` stays open), 405 for a known path. The app
 * mounts them around its routes (`createMemoryApp`), the fast lane applies the same list
 * (`createMemoryListener`).
 *
 * @example
 * const edge = memoryEdge(app, { logger, metrics, authToken: "s3cret" });
 * edge.mount(app, "request-id", "request-log");
 */
export function memoryEdge(app: Hono, options: MemoryEdgeOptions): Edge {
  return new Edge([
    requestIdConcern(),
    requestLogConcern(options.logger, options.metrics),
    options.origins === undefined
      ? undefined
      : originCheckConcern(options.origins, (_status, message) => ({ error: message })),
    callerAuthConcern(new CallerAuthenticator(options.authToken, options.keys), ["/healthz"]),
    options.rateLimit === undefined ? undefined : memoryRateLimit(options.rateLimit),
    methodCheckConcern(app, (c, methods) =>
      c.json(
        {
          error: `method ${c.req.method} not allowed on ${c.req.path}; allowed: ${methods.join(", ")}`,
        },
        405,
        { Allow: methods.join(", ") },
      ),
    ),
  ]);
}

/** The `rate-limit` concern: one bucket per key, one for the operator; `/healthz` takes none. */
function memoryRateLimit(limit: RequestRateLimit) {
  const { requestsPerSecond: rate, burst } = limit;
  return rateLimitConcern({
    buckets: new TokenBuckets({ ratePerSecond: rate, burst }),
    callerOf: (c) => callerName(principalOf(c)),
    openPaths: ["/healthz"],
    body: (wait) => ({
      error: `rate limit exceeded: ${rate} requests per second (bursts of ${burst}) per API key; retry after ${wait} s`,
    }),
  });
}
