import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** Options of {@link bearerGuard}. */
export interface BearerGuardOptions {
  /** The token every request must carry as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Exact paths that stay open (the seed: `/healthz`). */
  readonly openPaths: readonly string[];
}

/**
 * Hono middleware that answers 401 `{error}` with `WWW-Authenticate: Bearer` unless the request
 * carries exactly `Authorization: Bearer <token>`. It runs before anything else (routing,
 * method checks, body reading), so a request without a valid token learns nothing else. Both sides
 * are SHA-256 hashed before `timingSafeEqual`: equal lengths whatever the header, so neither the
 * token nor its length leaks through timing.
 *
 * @example
 * app.use("*", bearerGuard({ token: "s3cret", openPaths: ["/healthz"] }));
 */
export function bearerGuard(options: BearerGuardOptions): MiddlewareHandler {
  if (options.token === "") throw new Error("bearerGuard needs a non-empty token");
  const expected = sha256(`Bearer ${options.token}`);
  const open = new Set(options.openPaths);
  return async (c, next) => {
    if (open.has(c.req.path) && (c.req.method === "GET" || c.req.method === "HEAD")) {
      await next();
      return;
    }
    const header = c.req.header("authorization");
    if (header !== undefined && timingSafeEqual(sha256(header), expected)) {
      await next();
      return;
    }
    const error = header === undefined ? "missing bearer token" : "invalid bearer token";
    return c.json({ error }, 401, { "WWW-Authenticate": "Bearer" });
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
