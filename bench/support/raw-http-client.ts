import { connect, type Socket } from "node:net";

/**
 * One keep-alive HTTP/1.1 connection sending pre-built requests over and over; resolves each
 * round trip with the response status. Cheap on purpose (the load generator shares the machine
 * with the servers it measures; node:http's client costs as much CPU per request as a server):
 * responses are only framed, by Content-Length or chunked transfer coding (Go's net/http chunks
 * bodies over 2 KiB), never parsed. Fails loudly on any other framing.
 *
 * @example
 * const client = await RawClient.open(port);
 * const status = await client.send(httpRequest(port, body));
 */
export class RawClient {
  private socket: Socket;
  private readonly port: number;
  private closed = false;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((status: number) => void) | undefined;
  private failed: ((error: Error) => void) | undefined;

  private constructor(port: number, socket: Socket) {
    this.port = port;
    this.socket = this.adopt(socket);
  }

  static async open(port: number): Promise<RawClient> {
    return new RawClient(port, await connectTo(port));
  }

  /**
   * Sends one request and resolves with the response status. A connection the server closed
   * meanwhile (its keep-alive timeout, e.g. while the bench waited for it to go idle) is opened
   * again first; one closed while a request waits fails that request.
   */
  async send(request: Buffer): Promise<number> {
    if (this.closed) {
      this.socket = this.adopt(await connectTo(this.port));
      this.closed = false;
      this.buffered = Buffer.alloc(0);
    }
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private adopt(socket: Socket): Socket {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (error) => this.failed?.(error));
    socket.on("close", () => {
      if (socket !== this.socket) return;
      this.closed = true;
      const failed = this.failed;
      this.failed = undefined;
      if (this.waiting !== undefined) {
        this.waiting = undefined;
        failed?.(new Error("the server closed the connection before answering"));
      }
    });
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = this.buffered.toString("latin1", 0, headEnd);
    const total = messageEnd(this.buffered, head, headEnd + 4);
    if (total === "bad") {
      this.failed?.(new Error(`response without Content-Length or chunked coding:\n${head}`));
      return;
    }
    if (total === undefined) return;
    this.buffered = this.buffered.subarray(total);
    const status = Number(head.slice(9, 12));
    const resolve = this.waiting;
    this.waiting = undefined;
    this.failed = undefined;
    resolve?.(status);
  }
}

function connectTo(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Where the response whose body starts at `bodyStart` ends; undefined while incomplete. */
function messageEnd(buffer: Buffer, head: string, bodyStart: number): number | undefined | "bad" {
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length !== null) {
    const total = bodyStart + Number(length[1]);
    return buffer.length < total ? undefined : total;
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(head)) return "bad";
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
    if (Number.isNaN(size)) return "bad";
    // The last chunk (size 0) is followed by an empty trailer section: "\r\n".
    const next = lineEnd + 2 + size + 2;
    if (buffer.length < next) return undefined;
    if (size === 0) return next;
    at = next;
  }
}

/**
 * The bytes of one `POST /mcp` request carrying `body`, with `headers` (e.g. a session id).
 *
 * @example
 * httpRequest(8080, Buffer.from("{}"), { "Mcp-Session-Id": "abc" });
 */
export function httpRequest(
  port: number,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): Buffer {
  return httpPost(port, "/mcp", body, headers);
}

/**
 * The bytes of one JSON `POST` to `path` carrying `body`, with `headers`.
 *
 * @example
 * httpPost(8080, "/v1/remember", Buffer.from('{"content":"x"}'));
 */
export function httpPost(
  port: number,
  path: string,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): Buffer {
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    extra +
    `Content-Length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}
