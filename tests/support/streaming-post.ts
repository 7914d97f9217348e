import { connect } from "node:net";

/** What {@link streamingPost} read back. */
export interface StreamedAnswer {
  /** The status code of the response, or undefined when none arrived. */
  readonly status: number | undefined;
  /** The raw response (head and body) as far as it arrived. */
  readonly raw: string;
  /** The socket error the client saw while sending, if any (EPIPE, ECONNRESET). */
  readonly sendError: string | undefined;
  /** Bytes of the body written before the client stopped. */
  readonly sent: number;
}

/**
 * POSTs a large body the way a streaming client does: headers first, then the body in chunks,
 * each written only after the previous one was flushed, and keeps sending after the response has
 * begun (a client does not read while it sends). Resolves once the server has closed the
 * connection or `totalBytes` were sent and the response is complete. `chunked` sends
 * `Transfer-Encoding: chunked` instead of a `Content-Length`.
 *
 * @example
 * const answer = await streamingPost(port, "/mcp", 4 * 1024 * 1024, { chunked: false });
 * answer.status; // 413
 */
export function streamingPost(
  port: number,
  path: string,
  totalBytes: number,
  options: { readonly chunked: boolean; readonly chunkBytes?: number },
): Promise<StreamedAnswer> {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let raw = "";
    let sendError: string | undefined;
    let sent = 0;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(raw);
      resolve({ status: match ? Number(match[1]) : undefined, raw, sendError, sent });
    };
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      raw += chunk;
      if (responseComplete(raw) && sent >= totalBytes) finish();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      sendError ??= error.code ?? error.message;
    });
    socket.on("close", finish);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      (options.chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${totalBytes}\r\n`) +
      "\r\n";
    const chunk = Buffer.alloc(chunkBytes, 0x20);
    const sendNext = () => {
      if (socket.destroyed) return;
      if (sent >= totalBytes) {
        if (options.chunked) socket.write("0\r\n\r\n");
        if (responseComplete(raw)) finish();
        return;
      }
      const size = Math.min(chunkBytes, totalBytes - sent);
      const body = chunk.subarray(0, size);
      const framed = options.chunked
        ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from("\r\n")])
        : body;
      sent += size;
      socket.write(framed, () => setImmediate(sendNext));
    };
    socket.once("connect", () => socket.write(head, sendNext));
  });
}

function responseComplete(raw: string): boolean {
  const headEnd = raw.indexOf("\r\n\r\n");
  if (headEnd < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, headEnd));
  return length !== null && raw.length >= headEnd + 4 + Number(length[1]);
}
