import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import {
  laneAnswerOf,
  laneSteps,
  type LaneResult,
  type LaneRoute,
  type LaneSteps,
} from "../../common/http/fast-lane.js";
import type { Edge } from "../../common/http/edge.js";
import { rawSocketIo, type RawSocketIo } from "../../common/http/raw-socket-io.js";
import { NOSNIFF_LINE } from "../../common/http/nosniff.js";
import { runWithRequestId } from "../../common/http/request-id.js";
import { parseSimpleRequestHead, SIMPLE_REQUEST_LINE } from "./simple-request-head.js";

/**
 * Options of {@link attachMcpFrontEnd}.
 *
 * @example
 * const options: McpFrontEndOptions = { edge, path: "/mcp", route: mcpLaneRoute(catalog), maxBodyBytes };
 */
export interface McpFrontEndOptions {
  /** The app's edge: the front end applies its concerns as the fast lane does (`laneSteps`). */
  readonly edge: Edge;
  /** The one route answered here, `POST /mcp`. */
  readonly route: LaneRoute;
  /** Bodies over this go to `node:http`, whose app answers 413. */
  readonly maxBodyBytes: number;
}

/**
 * Heads longer than this go to `node:http`: half its `maxHeaderSize` (16 KiB), so nothing it
 * would refuse with 431 is answered here.
 */
const MAX_HEAD_BYTES = 8 * 1024;
/** A request still incomplete this long after its first byte goes to `node:http` and its timeouts. */
const PARTIAL_REQUEST_MS = 2_000;
/** Node's `HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER`: idle sockets live this long past the advertised timeout. */
const KEEP_ALIVE_BUFFER_MS = 1_000;

/**
 * Puts a lean HTTP/1.1 front end on `node:net` in front of `server` (a `node:http` server whose
 * request listener is the app): every new connection first meets the front end, which answers
 * plain keep-alive `POST /mcp` requests framed by one Content-Length (see
 * `parseSimpleRequestHead`) that the lane route answers, with the edge's concerns applied as the
 * fast lane applies them (request id, request metrics, Host/Origin, bearer token; a refusal is
 * left to the app). The first request it does not answer itself (any other method, path or
 * framing, a refusal, a message the route declines such as `initialize`), and everything after
 * it on that connection, goes to `node:http` unchanged: the bytes read so far are put back on
 * the socket and the socket is handed to the server's own connection listener, so every answer
 * but the hot one keeps one implementation. Idle connections close a second after the server's
 * `keepAliveTimeout`, as `node:http`'s do; a request still incomplete when more bytes come 2 s
 * after its first one, or when none came for that long, is handed over with its bytes, and
 * Node's header and request timeouts run from there. An answer is sent once the event loop has
 * served every connection that was readable in the same turn (`setImmediate`), the answers of
 * that turn one after the other: under load, the wake-up a write gives a client no longer
 * preempts the rest of the turn's work (~15 % less CPU per 1-line call with 8 clients,
 * bench/sql-mcp-pair.ts; docs/performance.md).
 *
 * It measured ~20 % less server CPU per 1-line `validate_sql` call than `node:http` with the
 * fast lane (67 -> 53 µs, bench/sql-mcp-pair.ts). `drainServer(server)` drains both: the server's
 * `closeIdleConnections` and `closeAllConnections` also close the front end's connections.
 *
 * @example
 * const server = createServer(listener);
 * attachMcpFrontEnd(server, { edge, route: mcpLaneRoute(catalog), maxBodyBytes: 1 << 20 });
 * server.listen(0);
 */
export function attachMcpFrontEnd(server: Server, options: McpFrontEndOptions): void {
  const steps = laneSteps(options.edge);
  if (steps.admit !== undefined || steps.take !== undefined || !steps.methodAllowed("POST")) {
    throw new Error("the MCP front end answers bearer-token services only");
  }
  const [httpConnection, ...others] = server.listeners("connection") as ((s: Socket) => void)[];
  if (httpConnection === undefined || others.length > 0) {
    throw new Error("attach the front end to a fresh node:http server");
  }
  server.removeListener("connection", httpConnection);
  const open = new Set<FrontConnection>();
  const handOver = (socket: Socket) => httpConnection.call(server, socket);
  server.on("connection", (socket: Socket) => {
    open.add(new FrontConnection(server, socket, options, steps, handOver, open));
  });
  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const connection of open) connection.closeIfIdle();
    closeIdle();
  };
  server.closeAllConnections = () => {
    for (const connection of open) connection.socket.destroy();
    closeAll();
  };
}

/** One connection while the front end holds it. */
class FrontConnection {
  #pending: Buffer = EMPTY;
  #busy = false;
  /** A response the kernel has not taken all of yet: nothing more is served until it has. */
  #writing = false;
  #ended = false;
  #firstByteAt = 0;
  /** When a byte last came or went (the keep-alive timeout runs from there, as node:http's). */
  #lastActive = performance.now();
  readonly #keepAlive: string;
  readonly #io: RawSocketIo;
  readonly #onEnd = () => this.end();
  readonly #onTimeout = () => this.timeout();
  readonly #onClose = () => this.open.delete(this);

  constructor(
    readonly server: Server,
    readonly socket: Socket,
    readonly options: McpFrontEndOptions,
    readonly steps: LaneSteps,
    readonly handOver: (socket: Socket) => void,
    readonly open: Set<FrontConnection>,
  ) {
    // As node:http says it (its keep-alive timeout in whole seconds).
    this.#keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(server.keepAliveTimeout / 1000)}\r\n\r\n`;
    // Closed a second after the advertised timeout, as node:http does: a client sending just as
    // the advertised time runs out must not meet a reset (the side-by-side bench did).
    socket.setTimeout(server.keepAliveTimeout + KEEP_ALIVE_BUFFER_MS);
    // Below the socket's streams: ~3-4 µs less per call (raw-socket-io.ts; framework-internals.ts, entry 6).
    this.#io = rawSocketIo(
      socket,
      (chunk) => this.data(chunk),
      () => this.drained(),
    );
    socket.on("end", this.#onEnd);
    socket.on("timeout", this.#onTimeout);
    socket.on("error", destroyOnError);
    socket.on("close", this.#onClose);
  }

  closeIfIdle(): void {
    if (!this.#busy && !this.#writing && this.#pending.length === 0) this.socket.destroy();
  }

  data(chunk: Buffer): void {
    const now = performance.now();
    this.#lastActive = now;
    if (this.#pending.length === 0) this.#firstByteAt = now;
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    if (!this.#busy && !this.#writing) this.serve();
    else if (this.#pending.length > MAX_HEAD_BYTES + this.options.maxBodyBytes) this.#io.pause();
  }

  /** The kernel took the rest of a response: serve what came meanwhile. */
  drained(): void {
    this.#writing = false;
    if (!this.#busy) this.serve();
  }

  /** Answers the complete requests buffered, until one needs more bytes or goes to node:http. */
  serve(): void {
    const { maxBodyBytes, route } = this.options;
    const steps = this.steps;
    while (this.#pending.length > 0 && !this.#busy && !this.#writing) {
      const pending = this.#pending;
      const headEnd = pending.indexOf(HEAD_END);
      if (headEnd < 0 || headEnd > MAX_HEAD_BYTES) {
        const tooLong = headEnd > MAX_HEAD_BYTES || pending.length > MAX_HEAD_BYTES + 4;
        if (tooLong || !mayBecomeSimple(pending)) this.release();
        else this.waitForMore();
        return;
      }
      const head = parseSimpleRequestHead(pending.toString("latin1", 0, headEnd));
      if (
        head === undefined ||
        head.contentLength > maxBodyBytes ||
        (steps.originAllowed !== undefined && !steps.originAllowed(head.headers)) ||
        (steps.authorized !== undefined && !steps.authorized(head.headers.authorization)) ||
        !route.admits(head.headers)
      ) {
        this.release();
        return;
      }
      const bodyEnd = headEnd + 4 + head.contentLength;
      if (pending.length < bodyEnd) {
        this.waitForMore();
        return;
      }
      const started = performance.now();
      const id = steps.idFor(head.headers["x-request-id"]);
      const body = pending.subarray(headEnd + 4, bodyEnd);
      const result = runWithRequestId(id, laneAnswerOf, route, body, { id, admission: undefined });
      if (result instanceof Promise) {
        this.#busy = true;
        void result.then((settled) => {
          this.#busy = false;
          if (this.finish(settled, id, started, bodyEnd)) {
            this.#io.resume();
            if (!this.#writing) this.serve();
          }
        });
        return;
      }
      if (!this.finish(result, id, started, bodyEnd)) return;
    }
    if (this.#pending.length === 0 && this.#ended && !this.#busy && !this.#writing) {
      this.socket.end();
    }
  }

  /** Sends an answer and drops its request's bytes; false when the request went to node:http. */
  finish(result: LaneResult, id: string, started: number, bodyEnd: number): boolean {
    if (result === undefined) {
      this.release();
      return false;
    }
    const rest = this.#pending.subarray(bodyEnd);
    this.#pending = rest.length === 0 ? EMPTY : rest;
    if (rest.length > 0) this.#firstByteAt = performance.now();
    const closing = !this.server.listening || (this.#ended && rest.length === 0);
    let status = 200;
    let text: string;
    let type = JSON_TYPE;
    if (typeof result === "string") text = result;
    else {
      status = result.status;
      text = result.text;
      type = headerLines(result.headers);
    }
    this.#lastActive = performance.now();
    const answer =
      (status === 200 ? OK_LINE : `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}\r\n`) +
      `X-Request-Id: ${id}\r\n${NOSNIFF_LINE}` +
      `Content-Length: ${Buffer.byteLength(text)}\r\n${type}Date: ${httpDate()}\r\n` +
      (closing ? "Connection: close\r\n\r\n" : this.#keepAlive) +
      text;
    const ms = this.#lastActive - started;
    if (closing) {
      this.#io.write(answer);
      this.steps.record?.("/mcp", status, ms, id);
      this.#pending = EMPTY;
      this.socket.end();
      return false;
    }
    // Alone, at once; else once this turn of the event loop has served every readable
    // connection (below).
    this.#writing = true;
    if (this.open.size > 1) deferAnswer(this, answer, status, ms, id);
    else this.send(answer, status, ms, id, false);
    return true;
  }

  /**
   * Sends an answer; once the kernel has taken it, serves what came meanwhile when `more` (an
   * answer {@link deferAnswer} held), else leaves that to the caller.
   */
  send(answer: string, status: number, ms: number, id: string, more = true): void {
    const whole = this.#io.write(answer);
    this.steps.record?.("/mcp", status, ms, id);
    if (!whole) return;
    this.#writing = false;
    if (more && !this.#busy && !this.socket.destroyed) this.serve();
  }

  waitForMore(): void {
    if (this.#ended) this.end();
    else if (performance.now() - this.#firstByteAt > PARTIAL_REQUEST_MS) this.release();
  }

  /** Hands the connection, with the bytes read and not answered, to node:http. */
  release(): void {
    const socket = this.socket;
    socket.pause();
    socket.setTimeout(0);
    this.#io.restore();
    socket.removeListener("end", this.#onEnd);
    socket.removeListener("timeout", this.#onTimeout);
    socket.removeListener("error", destroyOnError);
    socket.removeListener("close", this.#onClose);
    this.open.delete(this);
    if (this.#pending.length > 0) socket.unshift(this.#pending);
    this.#pending = EMPTY;
    this.handOver(socket);
    // The bytes put back flow to Node's parser on the next tick, before any newer read.
    socket.resume();
  }

  end(): void {
    this.#ended = true;
    if (this.#busy || this.#writing) return;
    if (this.#pending.length === 0) {
      this.socket.end();
      return;
    }
    // Cut off mid-request: as Node's parser does at EOF (answerClientErrors' shape).
    const text = JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32000, message: "malformed HTTP request: the connection ended mid-request" },
      id: null,
    });
    this.#pending = EMPTY;
    this.socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n${NOSNIFF_LINE}` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }

  timeout(): void {
    // Reads and writes below the stream do not push the socket's timer back: it fires once per
    // period, and is set again for what is left of it while the connection is in use.
    const limit = this.server.keepAliveTimeout + KEEP_ALIVE_BUFFER_MS;
    const idle = performance.now() - this.#lastActive;
    if (this.#busy || this.#writing || idle < limit) {
      this.socket.setTimeout(this.#busy || this.#writing ? limit : Math.max(1, limit - idle));
      return;
    }
    if (this.#pending.length === 0) this.socket.destroy();
    else this.release();
  }
}

interface HeldAnswer {
  readonly connection: FrontConnection;
  readonly answer: string;
  readonly status: number;
  readonly ms: number;
  readonly id: string;
}

let held: HeldAnswer[] = [];

/**
 * Holds an answer until the event loop's poll phase has run every readable connection's reads
 * (`setImmediate`), then sends the answers held in order. Meanwhile its connection counts as
 * writing: nothing more is served on it, it is not idle, and it does not end.
 */
function deferAnswer(
  connection: FrontConnection,
  answer: string,
  status: number,
  ms: number,
  id: string,
): void {
  if (held.length === 0) setImmediate(sendHeld);
  held.push({ connection, answer, status, ms, id });
}

function sendHeld(): void {
  const answers = held;
  held = [];
  for (const { connection, answer, status, ms, id } of answers) {
    connection.send(answer, status, ms, id);
  }
}

/**
 * Whether a head still without its blank line may become one the front end answers: it starts
 * as `POST /mcp HTTP/1.1` and its line break do, and every LF so far follows a CR. Anything else
 * (another method, a head of bare LFs) goes to node:http at once, which answers or waits for it
 * under its own timeouts; held here, a complete bare-LF request waited for a blank line that never
 * came until the idle timeout (6 s) before node:http answered it 400.
 *
 * @example
 * mayBecomeSimple(Buffer.from("POST /mcp HTTP/1.1\r\nHost: a\r\n")); // true
 * mayBecomeSimple(Buffer.from("POST /mcp HTTP/1.1\nHost: a\n\n")); // false
 */
function mayBecomeSimple(pending: Buffer): boolean {
  const n = Math.min(pending.length, REQUEST_PREFIX.length);
  if (pending.compare(REQUEST_PREFIX, 0, n, 0, n) !== 0) return false;
  for (let lf = pending.indexOf(10); lf >= 0; lf = pending.indexOf(10, lf + 1)) {
    if (lf === 0 || pending[lf - 1] !== 13) return false;
  }
  return true;
}

const REQUEST_PREFIX = Buffer.from(`${SIMPLE_REQUEST_LINE}\r\n`, "latin1");
const EMPTY = Buffer.alloc(0);
/** The blank line ending a head, as bytes (a string argument is converted on every search). */
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
const OK_LINE = "HTTP/1.1 200 OK\r\n";
const JSON_TYPE = "Content-Type: application/json\r\n";

function headerLines(headers: Readonly<Record<string, string>>): string {
  let lines = "";
  for (const name in headers) lines += `${name}: ${headers[name] as string}\r\n`;
  return lines;
}

function destroyOnError(this: Socket): void {
  this.destroy();
}

let dateSecond = -1;
let dateText = "";

/** The `Date` header's value, formatted once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
