import type { Context, Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { EdgeConcern } from "./edge.js";

/**
 * Hono's `methodNotAllowed` (405 with `Allow` for a path the app knows under other methods) as
 * an edge concern. Its lane side: the lane answers only `POST` on routes whose `POST` the app has
 * (the parity test checks each lane route against the app's routes), so it never meets a method
 * the app would refuse.
 *
 * @example
 * const concern = methodCheckConcern(app, (c, methods) => c.json({ error: "no" }, 405));
 */
export function methodCheckConcern(
  app: Hono,
  onMethodNotAllowed: (c: Context, methods: string[]) => Response | Promise<Response>,
): EdgeConcern {
  return {
    name: "method-not-allowed",
    middleware: methodNotAllowed({ app, onMethodNotAllowed }),
    lane: { admits: (method) => method === "POST" },
  };
}
