import { createMiddleware } from "hono/factory";
import type { MiddlewareHandler } from "hono";
import { readBody } from "../../common/http/body-reader.js";
import { cacheBodyText } from "../../common/http/framework-internals.js";
import { nestsDeeperThan, TOO_DEEP } from "../../../core/memory/index.js";
import { HttpError } from "./http-error.js";

/** The request body limit of the memory API: 1 MB (1,048,576 bytes). */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * Middleware for a route whose body is one JSON object: `Content-Type` must be `application/json`
 * (a charset only if UTF-8), the body at most `maxBytes` (read with the one body reader and its
 * over-size policy, `readBody` in shells/common/http/body-reader.ts: a larger declared
 * `Content-Length` is refused before reading, a chunked body is counted as it arrives and reading
 * stops at the limit), the text valid JSON and the value an object (not an array, string or
 * null). Throws {@link HttpError} 400/413 with a message naming what was wrong. The object's
 * fields are validated next, by the route's validator, with the core's schema.
 *
 * Why not Hono's pieces here: its `json` validator skips validation when the media type is not
 * JSON (the schema then sees `{}`) and answers every parse error with one fixed sentence; its
 * `bodyLimit` (4.13.19, the latest) keeps the reader of a chunked body locked after refusing it,
 * so @hono/node-server cannot drain the upload and the client gets a reset instead of the 413
 * (the e2e test "answers 413 ... chunked, and the client receives it" fails with "socket hang
 * up"; upstream: honojs/node-server#327, honojs/hono#4969).
 *
 * @example
 * app.post("/v1/remember", jsonObjectBody(MAX_BODY_BYTES), validJson(schema, "Remember"), handler);
 */
export function jsonObjectBody(maxBytes: number = MAX_BODY_BYTES): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const problem = mediaTypeProblem(c.req.header("content-type") ?? "");
    if (problem !== undefined) throw new HttpError(400, problem);
    const body = await readBody(c, maxBytes);
    if (body === undefined) {
      throw new HttpError(413, `request body exceeds the limit of ${maxBytes} bytes`);
    }
    const text = body.toString("utf8");
    jsonObjectOf(text);
    // The stream is consumed: the validator's `c.req.json()` reads the text from Hono's cache.
    cacheBodyText(c, text);
    await next();
  });
}

/**
 * Whether a `Content-Type` value is `application/json` (any case, parameters allowed, a charset
 * only if it is UTF-8: JSON on the wire is UTF-8, RFC 8259, and a body in another charset would
 * be stored garbled): what {@link jsonObjectBody} accepts, and what the fast path checks before
 * answering.
 *
 * @example
 * isJsonMediaType("application/json; charset=utf-8");  // true
 * isJsonMediaType("application/json; charset=latin1"); // false
 * isJsonMediaType("text/plain");                       // false
 */
export function isJsonMediaType(type: string): boolean {
  return mediaTypeProblem(type) === undefined;
}

function mediaTypeProblem(type: string): string | undefined {
  const json = /^application\/json\s*(?:;(.*))?$/is.exec(type);
  if (json === null) {
    const got = type === "" ? "none" : JSON.stringify(type);
    return `Content-Type: expected application/json, got ${got}`;
  }
  const charset = /(?:^|;)\s*charset\s*=\s*"?([^";\s]*)/i.exec(json[1] ?? "")?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return undefined;
  return `Content-Type: charset ${JSON.stringify(charset)} is not accepted: send the JSON body in UTF-8`;
}

/**
 * The JSON object a body's text holds, or an {@link HttpError} 400 naming what is wrong (empty,
 * malformed, not an object): the check of {@link jsonObjectBody}, shared with the fast path.
 *
 * @example
 * jsonObjectOf('{"message":"deploys"}'); // { message: "deploys" }
 * jsonObjectOf("[]");                    // throws HttpError 400 "body: expected a JSON object, got an array"
 */
export function jsonObjectOf(text: string): object {
  if (text.trim() === "") {
    throw new HttpError(400, "body: expected a JSON object, got an empty body");
  }
  if (nestsDeeperThan(text)) throw new HttpError(400, `body: ${TOO_DEEP}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : "unreadable";
    throw new HttpError(400, `body: malformed JSON (${reason})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new HttpError(400, `body: expected a JSON object, got ${got}`);
  }
  return value;
}
