import type { MiddlewareHandler } from "hono";
import type { Logger } from "./logger.js";

/**
 * Hono middleware logging one line per request once the answer is known: method, path (without
 * the query string, which may carry data), status and duration in milliseconds (two decimals).
 * Mounted first, so refused requests (401, 413, 404) are logged too.
 *
 * @example
 * app.use("*", requestLog(logger));
 * // {"time":"…","level":"info","msg":"request","method":"POST","path":"/v1/recall","status":200,"ms":3.12}
 */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 100) / 100;
      logger.info("request", { method: c.req.method, path: c.req.path, status: c.res.status, ms });
    }
  };
}
