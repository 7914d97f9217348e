import type { Context, MiddlewareHandler } from "hono";
import type { EdgeConcern, RecordAnswer } from "./edge.js";
import { SILENT_LOGGER, type Logger } from "../logger.js";
import { requestIdOf } from "./request-id.js";
import type { ServiceMetrics } from "../service-metrics.js";

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
      // Answered before any route (404, or 401 from the guard): one label, so unknown paths
      // cannot grow the label set.
      const route =
        c.req.routePath === "/*" || c.req.routePath === "*" ? "unmatched" : c.req.routePath;
      logRequest(
        logger,
        metrics,
        {
          method: c.req.method,
          path: c.req.path,
          route,
          status: c.res.status,
          ms: performance.now() - started,
          caller: (c.get as (key: string) => unknown)(CALLER) as string | undefined,
        },
        requestIdOf(c),
      );
    }
  };
}

/** One answered request, as {@link logRequest} records it. */
export interface AnsweredRequest {
  readonly method: string;
  /** The path as requested, without the query string (it goes to the log). */
  readonly path: string;
  /** The route pattern (`/v1/memories/:id`) or `unmatched` (it labels the metrics). */
  readonly route: string;
  readonly status: number;
  /** Milliseconds from the request to its answer. */
  readonly ms: number;
  /** Who called (a key's id, `operator`; never a credential), when the service names callers. */
  readonly caller?: string | undefined;
}

const CALLER = "request-log.caller";

/**
 * Names the caller of the request in its `request` log line (`caller`): the service's caller
 * check calls it once it knows (memsvc: `key:<id>` or `operator`). Never pass a credential.
 *
 * @example
 * logCallerAs(c, "key:3f9c0a1b2c3d4e5f");
 */
export function logCallerAs(c: Context, caller: string): void {
  (c.set as (key: string, value: unknown) => void)(CALLER, caller);
}

/**
 * Records an answered request: the `request` log line of {@link requestLog} (with the request's
 * id) and, with `metrics`, its count and latency. Shared by
 * {@link requestLog} and the fast lane, which answers without Hono, so both write the same line.
 *
 * @example
 * logRequest(logger, metrics, { method: "POST", path: "/v1/search", route: "/v1/search", status: 200, ms: 1.7 }, "trace-42");
 */
export function logRequest(
  logger: Logger,
  metrics: ServiceMetrics | undefined,
  request: AnsweredRequest,
  id: string | undefined,
): void {
  const { method, path, route, status, ms, caller } = request;
  logger.info("request", {
    method,
    path,
    status,
    ms: Math.round(ms * 100) / 100,
    request_id: id,
    ...(caller === undefined ? {} : { caller }),
  });
  metrics?.observeRequest({ method, route, status, seconds: ms / 1000 });
}

/**
 * The request log and metrics as an edge concern: {@link requestLog} for Hono, and for the lane
 * a function recording a `POST` it answered (route = path: the lane answers exact paths only).
 * Without a logger it counts only (sqlsvc logs one line per tool call instead), and then builds
 * no log fields.
 *
 * @example
 * const concern = requestLogConcern(logger, metrics);
 */
export function requestLogConcern(
  logger: Logger | undefined,
  metrics: ServiceMetrics | undefined,
): EdgeConcern {
  let record: RecordAnswer;
  if (logger !== undefined) {
    record = (path, status, ms, id, caller) =>
      logRequest(logger, metrics, { method: "POST", path, route: path, status, ms, caller }, id);
  } else {
    record = (path, status, ms) =>
      metrics?.observeRequest({ method: "POST", route: path, status, seconds: ms / 1000 });
  }
  return {
    name: "request-log",
    middleware: requestLog(logger ?? SILENT_LOGGER, metrics),
    lane: { record },
  };
}
