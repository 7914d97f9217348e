/**
 * Every place our HTTP edge relies on how Hono, @hono/node-server or Node work inside rather than
 * on what they document, in one file, so that a dependency update has one file to re-read.
 *
 * Checked against: hono 4.13.19, @hono/node-server 2.1.8, @modelcontextprotocol/sdk 1.32.2 (no
 * internal of the SDK is used: the MCP lane imports only its exported `isJsonContentType` and
 * `SUPPORTED_PROTOCOL_VERSIONS`), Node 20.19. When one of them moves, re-read each entry below
 * against the new source; the tests named there fail when an entry stops holding.
 *
 * 1. {@link handOverBody}: @hono/node-server builds the Web `Request`'s body from
 *    `incoming.rawBody` when it is a Buffer (`newRequest` in dist/index.mjs), instead of reading
 *    the Node stream. Needed because the fast lane reads a body before it knows whether it can
 *    answer it; what it cannot answer (a refusal) goes to the app with the bytes it read, so that
 *    every refusal has one implementation. Tests: the "hands … over" cases of
 *    tests/integration/shells/common/http/fast-lane.test.ts and memory-fast-path.test.ts.
 * 2. {@link nodeBindingsOf}: under @hono/node-server, `c.env` is `{ incoming, outgoing }` (its
 *    `HttpBindings` type), and a header set on `outgoing` before the handler answers is merged
 *    into whatever the adapter writes (it calls `writeHead(status, headers)`, which Node merges
 *    with headers already set). `requestId()` sets `X-Request-Id` there: setting it on the answer
 *    instead turned every answer's plain header object into a `Headers` and sent it down the
 *    adapter's slower path. The body reader reads the lane's over-limit mark on `incoming`.
 * 3. {@link cacheBodyText}: Hono's `HonoRequest#bodyCache` holds promises (hono 4.13
 *    request.js `#cachedBody`) although its type says values. Filling it lets a route
 *    validator's `c.req.json()` read the text the body reader already read; a `new Request`
 *    carrying the text instead cost ~100 µs per request.
 * 4. {@link responseUnderway}: Node keeps the response being written on a connection as
 *    `socket._httpMessage`. A parser error on a socket whose answer headers already went out
 *    must not get a second answer written into the middle of the first.
 * 5. {@link toNodeListener}: `getRequestListener` is public API; it is here so that the one seam
 *    between Hono and Node (the one place that decides what happens to a body left unread after
 *    the answer, see `autoCleanupIncoming` below) is in this file too. Its `errorHandler` gets a
 *    `RequestError` for a request it cannot build (no `Host`, a `*` target), which it otherwise
 *    answers 400 with an empty body. Test: tests/e2e/http-parser-errors.test.ts.
 *
 * 6. `rawSocketIo` (raw-socket-io.ts, apart for its size): a TCP socket's handle
 *    (`socket._handle`, Node's `LibuvStreamWrap`) calls its `onread` property with each chunk
 *    (length and offset in the `stream_wrap` binding's `streamBaseState`), and writes with
 *    `writeUtf8String(req, text)` on a `WriteWrap` whose `oncomplete` runs if the kernel did
 *    not take it all at once (`kLastWriteWasAsync`); this is what `net.Socket` itself does
 *    (lib/internal/stream_base_commons.js, `onStreamRead`, `writeGeneric`). The MCP front end
 *    reads and writes there instead of through the socket's Readable and Writable (~3-4 µs less
 *    CPU per call, measured), and gives `onread` back before it hands a connection to
 *    node:http. The binding comes from `process.binding`, which Node 20 still serves for
 *    `stream_wrap` (a warning only under `--pending-deprecation`); where it or the handle's
 *    methods are missing, the same interface runs on the socket's public stream API. Tests:
 *    tests/integration/shells/sqlsvc/mcp-front-end.test.ts (pipelining, pieces, hand-over,
 *    ends mid-request) and tests/integration/shells/common/http/raw-socket-io.test.ts.
 *
 * Unread bodies after an answer: @hono/node-server's default `autoCleanupIncoming: true` reads
 * and throws away what a client still sends after the answer (at most 64 MiB or 500 ms, then it
 * ends the connection with a FIN, `destroySoon`), so a client still sending reads our 413
 * instead of meeting a reset (issue 8). The body reader relies on it: it stops at the limit and
 * answers at once (see body-reader.ts).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { Context } from "hono";

/**
 * Gives the app a body the lane already read: @hono/node-server then serves it as the request's
 * body instead of the (consumed) stream.
 *
 * @example
 * handOverBody(req, body);
 * fallback(req, res);
 */
export function handOverBody(req: IncomingMessage, body: Buffer): void {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
}

/** What @hono/node-server passes as `c.env`. */
export interface NodeBindings {
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

/**
 * The Node request and response behind a Hono context, when served by @hono/node-server; both
 * undefined under `app.request()`.
 *
 * @example
 * nodeBindingsOf(c).outgoing?.setHeader("X-Request-Id", id);
 */
export function nodeBindingsOf(c: Context): NodeBindings {
  const env = c.env as NodeBindings | undefined;
  return env ?? NO_BINDINGS;
}

const NO_BINDINGS: NodeBindings = {};

/**
 * Puts a body text already read into Hono's body cache, where `c.req.json()` and `c.req.text()`
 * read it.
 *
 * @example
 * cacheBodyText(c, text);
 * await next(); // the validator's c.req.json() parses `text`
 */
export function cacheBodyText(c: Context, text: string): void {
  Object.assign(c.req.bodyCache, { text: Promise.resolve(text) });
}

/**
 * Whether a response is already being written on this connection (its headers sent).
 *
 * @example
 * if (responseUnderway(socket)) socket.destroy();
 */
export function responseUnderway(socket: Duplex): boolean {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return pending?.headersSent === true;
}

/**
 * A Hono app's `fetch` as a Node request listener (@hono/node-server's adapter). With `refuse`,
 * a request the adapter cannot turn into a Web `Request` (Node's parser lets through HTTP/0.9
 * lines without a `Host`, such as `POST /mcp`, and the `*` target of `OPTIONS * HTTP/1.1`) is
 * answered 400 with `refuse`'s body (the service's error shape) instead of the adapter's empty
 * one (issue 26); its `errorHandler` option is public API.
 *
 * @example
 * const fallback = toNodeListener(app.fetch, (_status, message) => ({ error: message }));
 */
export function toNodeListener(
  fetch: Parameters<typeof getRequestListener>[0],
  refuse?: (status: number, message: string) => unknown,
): RequestListener {
  if (refuse === undefined) return getRequestListener(fetch);
  return getRequestListener(fetch, {
    errorHandler: (error) => {
      // The adapter calls this for a request it could not build (a RequestError), and for a
      // fetch that threw at once (Hono's app.fetch answers its errors itself: a bug if it comes).
      const built = !(error instanceof RequestError);
      const [status, message] = built
        ? [500, "internal error"]
        : [400, `malformed HTTP request: ${error.message}`];
      return new Response(JSON.stringify(refuse(status, message)), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    },
  });
}
