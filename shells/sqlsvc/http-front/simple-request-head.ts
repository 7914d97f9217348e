/**
 * The head of a request the front end may answer itself: `POST /mcp HTTP/1.1`, framed by one
 * Content-Length and nothing else, with the few headers the lane reads (lower-case names, as
 * Node's `req.headers` has them).
 */
export interface SimpleRequestHead {
  /** The body's length in bytes (the only framing allowed). */
  readonly contentLength: number;
  readonly headers: {
    readonly host: string;
    readonly origin?: string;
    readonly authorization?: string;
    readonly "content-type"?: string;
    readonly "mcp-protocol-version"?: string;
    readonly "x-request-id"?: string;
  };
}

/** The request line the front end answers; any other goes to `node:http`. */
export const SIMPLE_REQUEST_LINE = "POST /mcp HTTP/1.1";

/** More header lines than this and the request goes to `node:http` (which has its own limits). */
export const MAX_SIMPLE_HEADERS = 64;

/** Headers the lane reads: each may appear once (a repeat goes to `node:http`). */
const READ = new Set([
  "host",
  "origin",
  "authorization",
  "content-type",
  "mcp-protocol-version",
  "x-request-id",
]);

/**
 * Headers that change how the request is framed or what the connection becomes: their presence
 * alone sends the request to `node:http` (Transfer-Encoding, Expect: 100-continue, Upgrade,
 * HTTP/2 settings, proxy framing).
 */
const FRAMING = new Set([
  "transfer-encoding",
  "expect",
  "upgrade",
  "http2-settings",
  "te",
  "trailer",
  "proxy-connection",
  "keep-alive",
]);

/** A field name: RFC 9110 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const DIGITS = /^[0-9]{1,15}$/;

/**
 * Reads the head of a request (the text before the blank line, decoded as latin1) strictly, and
 * returns it only when it is a plain keep-alive `POST /mcp HTTP/1.1` with exactly one
 * all-digit Content-Length and a Host. Anything unusual gives undefined, and the front end
 * hands the connection to `node:http` unchanged: another method, target or version, leading
 * blank lines, bare LF or CR, obs-fold (a line starting with a space or tab), whitespace before
 * a colon, a name that is not a token, a control character or any byte over 0x7e, a repeated
 * header the lane reads (Content-Length included), Transfer-Encoding, Expect, Upgrade,
 * Connection other than `keep-alive`, or more than {@link MAX_SIMPLE_HEADERS} lines. Refusing is
 * always safe (`node:http` then parses the same bytes and answers as it always has); accepting
 * is safe only when there is one reading of the framing, which is what the checks make sure of.
 *
 * @example
 * parseSimpleRequestHead("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 2");
 * // { contentLength: 2, headers: { host: "a" } }
 * parseSimpleRequestHead("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked"); // undefined
 */
export function parseSimpleRequestHead(head: string): SimpleRequestHead | undefined {
  if (!head.startsWith(SIMPLE_REQUEST_LINE + "\r\n")) return undefined;
  // One pass over the bytes: printable ASCII and tab only, CR only as part of CRLF.
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 13) {
      if (head.charCodeAt(i + 1) !== 10) return undefined;
      i++;
    } else if ((c < 32 && c !== 9) || c > 126) return undefined;
  }
  const lines = head.split("\r\n");
  if (lines.length - 1 > MAX_SIMPLE_HEADERS) return undefined;
  const headers: Record<string, string> = {};
  let contentLength: number | undefined;
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n] as string;
    const colon = line.indexOf(":");
    if (colon <= 0) return undefined; // also an empty line, and obs-fold's leading space below
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) return undefined;
    const key = name.toLowerCase();
    const value = trimOws(line.slice(colon + 1));
    if (key === "content-length") {
      if (contentLength !== undefined || !DIGITS.test(value)) return undefined;
      contentLength = Number(value);
    } else if (key === "connection") {
      if (value.toLowerCase() !== "keep-alive") return undefined;
    } else if (FRAMING.has(key)) {
      return undefined;
    } else if (READ.has(key)) {
      if (headers[key] !== undefined) return undefined;
      headers[key] = value;
    }
  }
  if (contentLength === undefined || headers["host"] === undefined) return undefined;
  return { contentLength, headers: headers as unknown as SimpleRequestHead["headers"] };
}

/** Leading and trailing spaces and tabs (RFC 9110 OWS) removed. */
function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function isOws(c: number): boolean {
  return c === 32 || c === 9;
}
