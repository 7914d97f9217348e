import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { jsonRpcErrorResponse } from "./json-rpc-error-response.js";

/**
 * Hono middleware that lets a request through only with exactly `Authorization: Bearer <token>`
 * (scheme case-sensitive, no trimming), else answers 401 with `WWW-Authenticate: Bearer`.
 * Both sides are hashed before a constant-time compare: equal-length buffers whatever the header
 * length, so neither the token nor its length leaks through timing.
 *
 * @example
 * if (token !== "") app.use("*", bearerAuth(token));
 */
export function bearerAuth(token: string): MiddlewareHandler {
  if (token === "") throw new Error("bearerAuth needs a non-empty token");
  const expected = sha256(`Bearer ${token}`);
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (header !== undefined && timingSafeEqual(sha256(header), expected)) {
      await next();
      return;
    }
    return jsonRpcErrorResponse(401, -32001, "Unauthorized: send Authorization: Bearer <token>", {
      "WWW-Authenticate": "Bearer",
    });
  };
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
