import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { EdgeConcern } from "./edge.js";
import { nodeBindingsOf } from "./framework-internals.js";
import { NOSNIFF_NAME, NOSNIFF_VALUE } from "./nosniff.js";

// Only for a `scoped` concern (sqlsvc's tool-call log reads the id inside the MCP SDK). A service
// that never runs a scope never enables it, and so pays for no async hooks on its promises
// (memsvc: ~30-60 µs of CPU a request, measured).
const current = new AsyncLocalStorage<string>();

/** The key of the request id in Hono's context (see {@link requestIdOf}). */
const REQUEST_ID = "requestId";

/** A client's id is kept when it is 1–128 visible ASCII characters; otherwise one is generated. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * Options of {@link requestId} and {@link requestIdConcern}.
 *
 * @example
 * const options: RequestIdOptions = { scoped: true };
 */
export interface RequestIdOptions {
  /**
   * Also make the id current for everything the request starts ({@link currentRequestId}), for
   * code that cannot be handed it (a tool-call log behind the MCP SDK). Costs async hooks on
   * every promise of the process; without it the id is read from the context
   * ({@link requestIdOf}) or handed over explicitly (the fast lane's `LaneCall.id`).
   */
  readonly scoped?: boolean;
}

/**
 * Hono middleware giving every request an id: the client's `X-Request-Id` when it is sane (1–128
 * visible ASCII characters), else a new UUID. The id is echoed in the response's `X-Request-Id`
 * and readable with {@link requestIdOf} for the rest of the request (with `scoped`, also with
 * {@link currentRequestId}), so log lines carry it. Served by `@hono/node-server`, the header is
 * set on Node's response before the handler runs (see framework-internals.ts, entry 2). As the
 * one step every answer of the app passes, it also sends `X-Content-Type-Options: nosniff`
 * (nosniff.ts; the fast lane and the MCP front end send it with their own heads).
 *
 * @example
 * app.use("*", requestId());
 * // curl -H 'X-Request-Id: abc' … → X-Request-Id: abc, and "request_id":"abc" in the log
 */
export function requestId(options: RequestIdOptions = {}): MiddlewareHandler {
  const scoped = options.scoped === true;
  return async (c, next) => {
    const id = requestIdFor(c.req.header("x-request-id"));
    (c.set as (key: string, value: unknown) => void)(REQUEST_ID, id);
    const { outgoing } = nodeBindingsOf(c);
    if (outgoing !== undefined) {
      outgoing.setHeader("X-Request-Id", id);
      outgoing.setHeader(NOSNIFF_NAME, NOSNIFF_VALUE);
      await (scoped ? current.run(id, next) : next());
      return;
    }
    await (scoped ? current.run(id, next) : next());
    try {
      c.res.headers.set("X-Request-Id", id);
    } catch {
      // Immutable headers (a Response passed through from fetch): copy it once.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("X-Request-Id", id);
    }
    c.res.headers.set(NOSNIFF_NAME, NOSNIFF_VALUE);
  };
}

/**
 * The id {@link requestId} gave the request of `c`; undefined before it ran (or without it).
 *
 * @example
 * logger.warn("slow", { request_id: requestIdOf(c) });
 */
export function requestIdOf(c: Context): string | undefined {
  return (c.get as (key: string) => unknown)(REQUEST_ID) as string | undefined;
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
 * once per request (for a `scoped` request id only).
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

/**
 * The id of the request being handled under a `scoped` request id ({@link RequestIdOptions}),
 * or undefined outside one.
 *
 * @example
 * logger.info("tool call", { request_id: currentRequestId() });
 */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

/**
 * The request id as an edge concern: {@link requestId} for Hono, {@link requestIdFor} for the
 * lane (which sends the id in `X-Request-Id` and hands it to the route; with `scoped`, it runs
 * the route's answer under it too).
 *
 * @example
 * const concern = requestIdConcern({ scoped: true });
 */
export function requestIdConcern(options: RequestIdOptions = {}): EdgeConcern {
  return {
    name: "request-id",
    middleware: requestId(options),
    lane: { idFor: requestIdFor, scoped: options.scoped === true },
  };
}
