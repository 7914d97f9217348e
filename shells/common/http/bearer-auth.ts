import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { EdgeConcern } from "./edge.js";

/**
 * Options of {@link bearerAuth}.
 *
 * @example
 * const options: BearerAuthOptions = {
 *   token: "s3cret",
 *   openPaths: ["/healthz"],
 *   body: (reason) => ({ error: `${reason} bearer token` }),
 * };
 */
export interface BearerAuthOptions {
  /** The token every request must carry as exactly `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Exact paths that stay open to `GET` and `HEAD` (memsvc: `/healthz`); default none. */
  readonly openPaths?: readonly string[];
  /** The JSON body of the 401 answer, in the service's own error shape. */
  readonly body: (reason: "missing" | "invalid") => unknown;
}

/**
 * Hono middleware that lets a request through only with exactly `Authorization: Bearer <token>`
 * (scheme case-sensitive, one space, no trimming), else answers 401 with `WWW-Authenticate:
 * Bearer` and the service's JSON error body. Mount it first (before routing, method checks and
 * body reading), so a request without a valid token learns nothing else. Both sides are SHA-256
 * hashed before `timingSafeEqual`: equal lengths whatever the header, so neither the token nor its
 * length leaks through timing.
 *
 * Hono's own `bearerAuth` is not used: it accepts the scheme in any case (`bearer x`), answers
 * 400 rather than 401 for a header that is not `Bearer <token68>`, and refuses tokens with
 * characters outside token68, where both services' contracts want exactly `Bearer <token>`,
 * whatever the token, and 401 for every refusal.
 *
 * @example
 * app.use("*", bearerAuth({ token: "s3cret", body: (reason) => ({ error: `${reason} token` }) }));
 */
export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler {
  const matches = bearerTokenMatcher(options.token);
  const open = new Set(options.openPaths ?? []);
  return async (c, next) => {
    if (open.has(c.req.path) && (c.req.method === "GET" || c.req.method === "HEAD")) {
      await next();
      return;
    }
    const header = c.req.header("authorization");
    if (matches(header)) {
      await next();
      return;
    }
    const body = options.body(header === undefined ? "missing" : "invalid");
    return new Response(JSON.stringify(body), {
      status: 401,
      headers: { "Content-Type": "application/json", "WWW-Authenticate": "Bearer" },
    });
  };
}

/**
 * Whether an `Authorization` header value is exactly `Bearer <token>`, compared in constant time
 * (see {@link bearerAuth}, which uses it; so does the fast lane, which answers without Hono).
 *
 * @example
 * const matches = bearerTokenMatcher("s3cret");
 * matches("Bearer s3cret"); // true
 * matches("bearer s3cret"); // false
 */
export function bearerTokenMatcher(token: string): (header: string | undefined) => boolean {
  if (token === "") throw new Error("bearerAuth needs a non-empty token");
  const expected = sha256(`Bearer ${token}`);
  return (header) => header !== undefined && timingSafeEqual(sha256(header), expected);
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/**
 * Bearer auth as an edge concern: {@link bearerAuth} for Hono (it answers the 401), and for the
 * lane the same token check, whose refusals the lane leaves to the app. The lane answers only
 * `POST`s, so the open paths (`GET`/`HEAD` only) never concern it.
 *
 * @example
 * const concern = bearerAuthConcern({ token, body: () => UNAUTHORIZED });
 */
export function bearerAuthConcern(options: BearerAuthOptions): EdgeConcern {
  return {
    name: "bearer-auth",
    middleware: bearerAuth(options),
    lane: { admits: bearerTokenMatcher(options.token) },
  };
}
