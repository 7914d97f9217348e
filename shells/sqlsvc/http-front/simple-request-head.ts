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
const FRAMING_NAMES = new Set([
  "transfer-encoding",
  "expect",
  "upgrade",
  "http2-settings",
  "te",
  "trailer",
  "proxy-connection",
  "keep-alive",
]);

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
 * One pass over the characters, line by line, without splitting the head or lower-casing names:
 * a string is made only for the values the lane reads (~0.3 µs for the benchmark's head, where
 * split, regular expressions and `toLowerCase` per line took ~2 µs).
 *
 * @example
 * parseSimpleRequestHead("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 2");
 * // { contentLength: 2, headers: { host: "a" } }
 * parseSimpleRequestHead("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked"); // undefined
 */
export function parseSimpleRequestHead(head: string): SimpleRequestHead | undefined {
  if (!head.startsWith(REQUEST_LINE_CRLF)) return undefined;
  const end = head.length;
  const headers: Record<string, string> = {};
  let contentLength = -1;
  let count = 0;
  let pos = REQUEST_LINE_CRLF.length;
  for (;;) {
    if (++count > MAX_SIMPLE_HEADERS) return undefined;
    const crlf = head.indexOf("\r\n", pos);
    const lineEnd = crlf < 0 ? end : crlf;
    // The name: token characters up to the colon (no whitespace, CR or LF; not empty).
    let colon = pos;
    for (; colon < lineEnd; colon++) {
      const c = head.charCodeAt(colon);
      if (c === 58) break;
      if (c > 127 || TOKEN_CHAR[c] !== 1) return undefined;
    }
    if (colon === pos || colon === lineEnd) return undefined;
    // The value: printable ASCII and tab only (a bare CR or LF ends up here and is refused).
    let start = colon + 1;
    for (let i = start; i < lineEnd; i++) {
      const c = head.charCodeAt(i);
      if ((c < 32 && c !== 9) || c > 126) return undefined;
    }
    let stop = lineEnd;
    while (start < stop && isOws(head.charCodeAt(start))) start++;
    while (stop > start && isOws(head.charCodeAt(stop - 1))) stop--;
    const name = nameAt(head, pos, colon);
    if (name === "content-length") {
      if (contentLength >= 0 || !allDigits(head, start, stop)) return undefined;
      contentLength = Number(head.slice(start, stop));
    } else if (name === "connection") {
      if (stop - start !== KEEP_ALIVE.length || !sameIgnoringCase(head, start, KEEP_ALIVE)) {
        return undefined;
      }
    } else if (name === FRAMING) {
      return undefined;
    } else if (name !== undefined) {
      if (headers[name] !== undefined) return undefined;
      headers[name] = head.slice(start, stop);
    }
    if (crlf < 0) break;
    pos = crlf + 2;
  }
  if (contentLength < 0 || headers["host"] === undefined) return undefined;
  return { contentLength, headers: headers as unknown as SimpleRequestHead["headers"] };
}

const REQUEST_LINE_CRLF = SIMPLE_REQUEST_LINE + "\r\n";
const KEEP_ALIVE = "keep-alive";

/** Stands for every framing header in {@link nameAt}'s answer. */
const FRAMING = "\u0000framing";

/**
 * Header names that matter here (lower case), by length: the lane's, Content-Length and
 * Connection as themselves, the framing ones as {@link FRAMING}. Every character of these names
 * has bit 0x20 set, so `c | 0x20` compares a token character with them ignoring case.
 */
const NAMES_BY_LENGTH: readonly (readonly [string, string])[][] = (() => {
  const table: [string, string][][] = [];
  const add = (name: string, as: string) => (table[name.length] ??= []).push([name, as]);
  for (const name of READ) add(name, name);
  for (const name of ["content-length", "connection"]) add(name, name);
  for (const name of FRAMING_NAMES) add(name, FRAMING);
  return table;
})();

/** The name at `[from, to)` as {@link NAMES_BY_LENGTH} has it, or undefined for any other. */
function nameAt(head: string, from: number, to: number): string | undefined {
  const candidates = NAMES_BY_LENGTH[to - from];
  if (candidates === undefined) return undefined;
  for (const [name, as] of candidates) {
    if (sameIgnoringCase(head, from, name)) return as;
  }
  return undefined;
}

/** Whether `head` at `from` holds `lower` (lower case, every character with bit 0x20) in any case. */
function sameIgnoringCase(head: string, from: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    if ((head.charCodeAt(from + k) | 0x20) !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** 1 to 15 digits (a safe integer, as `Number` reads it exactly). */
function allDigits(head: string, from: number, to: number): boolean {
  if (to <= from || to - from > 15) return false;
  for (let i = from; i < to; i++) {
    const c = head.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** RFC 9110 `tchar`: 1 for the characters a field name may have. */
const TOKEN_CHAR = (() => {
  const table = new Uint8Array(128);
  for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
    table[c.charCodeAt(0)] = 1;
  }
  return table;
})();

function isOws(c: number): boolean {
  return c === 32 || c === 9;
}
