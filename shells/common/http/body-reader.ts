import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { nodeBindingsOf } from "./framework-internals.js";

/**
 * The one request body reader of both services, with its one over-size policy, and its three thin
 * feeds: {@link readNodeBody} (the fast lane, from Node's stream), {@link readBody} (Hono
 * routes, from the Web stream) and {@link streamBody} (a route that reads its body as it comes,
 * the NDJSON import). Both return the bytes, or `undefined` for a body over the limit;
 * decoding is the route's business (the memory API decodes with `Buffer#toString`, which keeps a
 * byte order mark, MCP as `Request#text()` does, which drops it).
 *
 * The policy: a Hono route answers 413 at once, without reading past the limit (a body declared
 * over it is not read at all; a streamed one up to the limit). At the Node level, the fast lane
 * first reads and throws away what a client still sends to one of its routes, bounded
 * ({@link discardNodeBody}), then hands the request to the app for that 413. What the client
 * sends after that is read and thrown away by the HTTP adapter after the answer (at most 500 ms,
 * then the connection ends with a FIN; see framework-internals.ts), so a client still sending
 * reads the 413 rather than meeting a reset (issue 8). The reader never cancels the stream: under
 * @hono/node-server a cancelled body destroys the socket, and the client gets a reset instead of
 * the answer (why Hono's own `bodyLimit` is not used: honojs/node-server#327, honojs/hono#4969).
 *
 * Relying on the adapter's after-answer drain alone was tried: an 8 MiB body sent to `/mcp` on a
 * loaded machine took longer than its 500 ms, and the client met EPIPE (the issue-8 test in
 * tests/e2e/sqlsvc-http.test.ts). Routes outside the lane (the memory API's PATCH, DELETE and
 * import) keep the adapter's drain only, as they did before.
 */

/**
 * What the fast lane reads and throws away of a body over the limit before the app answers 413:
 * at most this many bytes, for at most {@link DISCARD_MS} (issue 8: a client still sending then
 * gets to finish and read the answer; the after-answer drain of @hono/node-server, 500 ms, was
 * too short for an 8 MiB body on a loaded machine, and the client met EPIPE).
 */
const DISCARD_BYTES = 16 * 1024 * 1024;
const DISCARD_MS = 2_000;

/** Requests the lane stopped reading at the limit and handed to the app, which answers 413. */
const overLimit = new WeakSet<IncomingMessage>();

const EMPTY = Buffer.alloc(0);

/** Where {@link readNodeBody} delivers: one of the two is called, once. */
export interface BodySink {
  /** The whole body, or undefined when it passed the limit (reading stopped there). */
  body(body: Buffer | undefined): void;
  /** The client went away mid-body (Node's `aborted` error). */
  failed(error: Error): void;
}

/**
 * Reads a Node request's body for the fast lane, without async hops: the bytes, or undefined
 * once more than `maxBytes` arrived. A request stopped at the limit is paused and marked, so that
 * the app it is handed to answers 413 without reading ({@link readBody}).
 *
 * @example
 * readNodeBody(req, 1_048_576, { body: (bytes) => answer(bytes), failed: () => undefined });
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number, sink: BodySink): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= maxBytes) {
      chunks.push(chunk);
      return;
    }
    settled = true;
    req.off("data", onData);
    discardNodeBody(req, () => sink.body(undefined));
  };
  req.on("data", onData);
  req.on("error", (error) => {
    if (settled) return;
    settled = true;
    sink.failed(error);
  });
  req.on("end", () => {
    if (settled) return;
    settled = true;
    sink.body(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  });
}

/**
 * Marks a request whose body is over the limit (the app it goes to answers 413 without reading),
 * reads and throws away what the client still sends, bounded ({@link DISCARD_BYTES},
 * {@link DISCARD_MS}), then calls `done` once, with the request paused. Only over-limit requests
 * of the lane's own routes come here; nothing of it runs for a request within the limit.
 *
 * @example
 * discardNodeBody(req, () => fallback(req, res));
 */
export function discardNodeBody(req: IncomingMessage, done: () => void): void {
  overLimit.add(req);
  if (req.readableEnded) {
    done();
    return;
  }
  let received = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.off("data", onData);
    req.off("end", finish);
    req.off("error", finish);
    req.pause();
    done();
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > DISCARD_BYTES) finish();
  };
  const timer = setTimeout(finish, DISCARD_MS);
  req.on("data", onData);
  req.on("end", finish);
  req.on("error", finish);
  req.resume();
}

/**
 * Reads a Hono request's body: the bytes, or undefined when it is over `maxBytes` (declared, or
 * counted as it arrives), or when the fast lane already found it so.
 *
 * @example
 * const body = await readBody(c, maxBytes);
 * if (body === undefined) throw new HttpError(413, "request body exceeds the limit");
 */
export async function readBody(c: Context, maxBytes: number): Promise<Buffer | undefined> {
  const { incoming } = nodeBindingsOf(c);
  if (incoming !== undefined && overLimit.has(incoming)) return undefined;
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > maxBytes) return undefined;
  const stream = c.req.raw.body;
  if (stream === null) return EMPTY;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      // Let go of the stream rather than cancel it (see the file header).
      reader.releaseLock();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The body's chunks as they come, for a route that streams its body (the NDJSON import), under
 * the same policy: a body declared over `maxBytes` is refused before anything is read
 * (`tooLarge()` is thrown at once), a streamed one when it passes the limit; the stream is let
 * go, never cancelled, also when the consumer stops early (an over-long line).
 *
 * @example
 * const chunks = streamBody(c, MAX_IMPORT_BYTES, () => new HttpError(413, "too large"));
 * for await (const chunk of chunks) parse(chunk);
 */
export function streamBody(
  c: Context,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<Uint8Array> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge();
  return chunksOf(c.req.raw.body, maxBytes, tooLarge);
}

async function* chunksOf(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<Uint8Array> {
  if (stream === null) return;
  const reader = stream.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value.byteLength;
      if (received > maxBytes) throw tooLarge();
      yield value;
    }
  } finally {
    // Let go of the stream rather than cancel it (see the file header).
    reader.releaseLock();
  }
}
