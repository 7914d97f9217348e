import type { MiddlewareHandler } from "hono";
import type { Logger } from "./logger.js";
import { currentRequestId } from "./request-id.js";
import type { ServiceMetrics } from "./service-metrics.js";

/**
 * Hono middleware logging one line per request once the answer is known: method, path (without
 * the query string, which may carry data), status, duration in milliseconds (two decimals) and
 * the request id (see `requestId()`, mounted before it). Mounted first, so refused requests
 * (401, 413, 404) are logged too. With `metrics`, it also counts the request and its latency by
 * method, route pattern (`/v1/memories/:id`, never the id itself) and status.
 *
 * @example
 * app.use("*", requestLog(logger, metrics));
 * // {"time":"…","level":"info","msg":"request","method":"POST","path":"/v1/recall","status":200,"ms":3.12,"request_id":"…"}
 */
export function requestLog(logger: Logger, metrics?: ServiceMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const elapsed = performance.now() - started;
      const ms = Math.round(elapsed * 100) / 100;
      const status = c.res.status;
      logger.info("request", {
        method: c.req.method,
        path: c.req.path,
        status,
        ms,
        request_id: currentRequestId(),
      });
      // Answered before any route (404, or 401 from the guard): one label, so unknown paths
      // cannot grow the label set.
      const route =
        c.req.routePath === "/*" || c.req.routePath === "*" ? "unmatched" : c.req.routePath;
      metrics?.observeRequest({ method: c.req.method, route, status, seconds: elapsed / 1000 });
    }
  };
}
