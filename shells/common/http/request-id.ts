import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { EdgeConcern } from "./edge.js";
import { nodeBindingsOf } from "./framework-internals.js";

const current = new AsyncLocalStorage<string>();

/** A client's id is kept when it is 1–128 visible ASCII characters; otherwise one is generated. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * Hono middleware giving every request an id: the client's `X-Request-Id` when it is sane (1–128
 * visible ASCII characters), else a new UUID. The id is echoed in the response's `X-Request-Id`
 * and readable with {@link currentRequestId} for the rest of the request, so log lines carry it.
 * Served by `@hono/node-server`, the header is set on Node's response before the handler runs
 * (see framework-internals.ts, entry 2).
 *
 * @example
 * app.use("*", requestId());
 * // curl -H 'X-Request-Id: abc' … → X-Request-Id: abc, and "request_id":"abc" in the log
 */
export function requestId(): MiddlewareHandler {
  return async (c, next) => {
    const id = requestIdFor(c.req.header("x-request-id"));
    const { outgoing } = nodeBindingsOf(c);
    if (outgoing !== undefined) {
      outgoing.setHeader("X-Request-Id", id);
      await current.run(id, next);
      return;
    }
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

/**
 * The id a request gets: the client's `X-Request-Id` value when it is sane, else a new UUID.
 * Shared by {@link requestId} and the fast lane, which answers without Hono.
 *
 * @example
 * requestIdFor("trace-42"); // "trace-42"
 * requestIdFor("a b");      // a fresh UUID
 */
export function requestIdFor(given: string | undefined): string {
  return given !== undefined && ACCEPTED.test(given) ? given : randomUUID();
}

/**
 * Runs `work(...args)` as the request `id`: {@link currentRequestId} reads it there and in
 * everything `work` starts (promises, timers). Arguments rather than a closure: the lane calls it
 * once per request.
 *
 * @example
 * const answer = runWithRequestId("trace-42", () => catalog.call(name, args));
 */
export function runWithRequestId<T, A extends unknown[]>(
  id: string,
  work: (...args: A) => T,
  ...args: A
): T {
  return current.run(id, work, ...args);
}

/** The id of the request being handled, or undefined outside one. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

/**
 * The request id as an edge concern: {@link requestId} for Hono, {@link requestIdFor} for the
 * lane (which sends the id in `X-Request-Id` and runs the call under it).
 *
 * @example
 * const concern = requestIdConcern();
 */
export function requestIdConcern(): EdgeConcern {
  return { name: "request-id", middleware: requestId(), lane: { idFor: requestIdFor } };
}
