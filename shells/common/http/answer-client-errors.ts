import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { responseUnderway } from "./framework-internals.js";
import { NOSNIFF_NAME, NOSNIFF_VALUE } from "./nosniff.js";

/** Options of {@link answerClientErrors}. */
export interface ClientErrorOptions {
  /** The body of an error answer in the service's own error shape, e.g. `{ error: message }`. */
  readonly body: (status: number, message: string) => unknown;
  /** Told about each refused connection (at debug level: these are the client's mistakes). */
  readonly onRefused?: (fields: { status: number; code: string }) => void;
}

const REASONS: Readonly<Record<number, string>> = {
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
};

/**
 * Answers what Node's HTTP parser refuses before the app sees a request (bad framing 400, an
 * oversized chunk extension 413, headers over `maxHeaderSize` 431, a header or request timeout 408) with a
 * JSON body in the service's own error shape instead of Node's empty one, and answers `CONNECT`
 * (which Node hands to no handler, leaving the client waiting) with a 405 and a close.
 *
 * @example
 * answerClientErrors(server, { body: (_status, message) => ({ error: message }) });
 */
export function answerClientErrors(server: Server, options: ClientErrorOptions): void {
  server.on("clientError", (error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex) => {
    const code = error.code ?? "unknown";
    const [status, message] = describe(error);
    options.onRefused?.({ status, code });
    // A reset connection cannot be answered; a response already under way must not be corrupted.
    if (code === "ECONNRESET" || !socket.writable || responseUnderway(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(status, options.body(status, message)));
  });
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    options.onRefused?.({ status: 405, code: "CONNECT" });
    socket.on("error", () => socket.destroy());
    socket.end(
      rawResponse(405, options.body(405, "CONNECT is not supported: this server is not a proxy"), {
        Allow: "GET, POST, DELETE",
      }),
    );
  });
}

function describe(error: NodeJS.ErrnoException & { reason?: string }): [number, string] {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "request headers too large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "chunk extensions too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      // Node raises it for `headersTimeout` and for `requestTimeout` (the whole request, body
      // included) alike: the message must not blame the headers (issue 26).
      return [408, "request not received in time (headers or body)"];
    default:
      return [400, `malformed HTTP request${error.reason ? `: ${error.reason}` : ""}`];
  }
}

function rawResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): string {
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`,
    "Content-Type: application/json",
    `${NOSNIFF_NAME}: ${NOSNIFF_VALUE}`,
    `Content-Length: ${Buffer.byteLength(text)}`,
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n${text}`;
}
