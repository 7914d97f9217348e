import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";

const current = new AsyncLocalStorage<string>();

/** A client's id is kept when it is 1–128 visible ASCII characters; otherwise one is generated. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * Hono middleware giving every request an id: the client's `X-Request-Id` when it is sane (1–128
 * visible ASCII characters), else a new UUID. The id is echoed in the response's `X-Request-Id`
 * and readable with {@link currentRequestId} for the rest of the request, so log lines carry it.
 *
 * @example
 * app.use("*", requestId());
 * // curl -H 'X-Request-Id: abc' … → X-Request-Id: abc, and "request_id":"abc" in the log
 */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.header("x-request-id");
    const id = given !== undefined && ACCEPTED.test(given) ? given : randomUUID();
    await current.run(id, next);
    try {
      c.res.headers.set("X-Request-Id", id);
    } catch {
      // Immutable headers (a Response passed through from fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("X-Request-Id", id);
    }
  };
}

/** The id of the request being handled, or undefined outside one. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}
