import type { Socket } from "node:net";

// Node internals, entry 6 of framework-internals.ts: re-read both when Node moves.

/**
 * Reads and writes of one socket, as {@link rawSocketIo} gives them.
 *
 * @example
 * const io = rawSocketIo(socket, (chunk) => serve(chunk), () => serveMore());
 * if (!io.write("HTTP/1.1 200 OK\r\n…")) waitForDrain();
 */
export interface RawSocketIo {
  /**
   * Sends `text` as UTF-8. True when the kernel took all of it; false when the rest is queued
   * (reads then stop until it is sent, and `drained` runs).
   */
  write(text: string): boolean;
  /** Stops reading (the kernel's buffer then holds what the client sends). */
  pause(): void;
  resume(): void;
  /** Gives the reads back to the socket's stream, for whoever takes the socket next. */
  restore(): void;
}

/** The parts of Node's `LibuvStreamWrap` used here (entry 6). */
interface StreamHandle {
  onread: (this: StreamHandle, arrayBuffer: ArrayBuffer) => unknown;
  reading: boolean;
  readStart(): number;
  readStop(): number;
  writeUtf8String(req: WriteRequest, text: string): number;
}

interface WriteRequest {
  handle: StreamHandle;
  oncomplete: (status: number) => void;
  async: boolean;
}

interface StreamWrapBinding {
  readonly WriteWrap: new () => WriteRequest;
  readonly streamBaseState: Int32Array;
  readonly kReadBytesOrError: number;
  readonly kArrayBufferOffset: number;
  readonly kLastWriteWasAsync: number;
}

const streamWrap: StreamWrapBinding | undefined = (() => {
  try {
    const binding = (process as unknown as { binding(name: string): unknown }).binding(
      "stream_wrap",
    ) as Partial<StreamWrapBinding>;
    const { WriteWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset } = binding;
    return typeof WriteWrap === "function" &&
      streamBaseState instanceof Int32Array &&
      typeof kReadBytesOrError === "number" &&
      typeof kArrayBufferOffset === "number" &&
      typeof binding.kLastWriteWasAsync === "number"
      ? (binding as StreamWrapBinding)
      : undefined;
  } catch {
    return undefined;
  }
})();

function streamHandleOf(socket: Socket): StreamHandle | undefined {
  const handle = (socket as Socket & { _handle?: Partial<StreamHandle> | null })._handle;
  return streamWrap !== undefined &&
    typeof handle?.onread === "function" &&
    typeof handle.readStart === "function" &&
    typeof handle.readStop === "function" &&
    typeof handle.writeUtf8String === "function"
    ? (handle as StreamHandle)
    : undefined;
}

/**
 * Reads and writes on `socket` below its Readable and Writable: each chunk read goes to `data`
 * (a Buffer the callee may keep), end of stream and read errors still reach the socket's stream
 * (its `end`, `error` and `close` events), and a write goes to the kernel in one system call
 * with no stream bookkeeping. A write the kernel cannot take at once stops the reads until it is
 * sent, then `drained` runs. On a socket without a stream handle (or a Node without the
 * binding, entry 6) the same contract runs on the socket's public API.
 *
 * @example
 * const io = rawSocketIo(socket, (chunk) => front.data(chunk), () => front.serve());
 * io.restore(); // before handing the socket to node:http
 */
export function rawSocketIo(
  socket: Socket,
  data: (chunk: Buffer) => void,
  drained: () => void,
): RawSocketIo {
  const handle = streamHandleOf(socket);
  if (handle === undefined || streamWrap === undefined) return streamSocketIo(socket, data);
  const { WriteWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset, kLastWriteWasAsync } =
    streamWrap;
  const streamRead = handle.onread;
  let queued = 0;
  let paused = false;
  const readStart = () => {
    if (handle.reading || socket.destroyed) return;
    handle.reading = true;
    handle.readStart();
  };
  const readStop = () => {
    if (!handle.reading) return;
    handle.reading = false;
    handle.readStop();
  };
  let restored = false;
  function written(this: WriteRequest, status: number): void {
    if (status < 0) {
      socket.destroy();
      return;
    }
    if (--queued === 0 && !restored) {
      if (!paused) readStart();
      drained();
    }
  }
  handle.onread = function onread(this: StreamHandle, arrayBuffer: ArrayBuffer): unknown {
    const nread = streamBaseState[kReadBytesOrError] as number;
    // End of stream and errors: the socket's own handling (its end, error and close events).
    if (nread <= 0 || socket.destroyed) return streamRead.call(this, arrayBuffer);
    data(Buffer.from(arrayBuffer, streamBaseState[kArrayBufferOffset], nread));
    return undefined;
  };
  return {
    write(text) {
      if (socket.destroyed) return true;
      const req = new WriteWrap();
      req.handle = handle;
      req.oncomplete = written;
      req.async = false;
      const error = handle.writeUtf8String(req, text);
      if (error !== 0) {
        socket.destroy();
        return true;
      }
      if (streamBaseState[kLastWriteWasAsync] === 0) return true;
      req.async = true;
      queued++;
      readStop();
      return false;
    },
    pause() {
      paused = true;
      readStop();
    },
    resume() {
      paused = false;
      if (queued === 0) readStart();
    },
    restore() {
      // Reading again whatever this stopped: the stream believes it is still reading, and
      // node:http's parser reads the handle itself.
      handle.onread = streamRead;
      restored = true;
      readStart();
    },
  };
}

/** {@link rawSocketIo} on the socket's public stream API. */
function streamSocketIo(socket: Socket, data: (chunk: Buffer) => void): RawSocketIo {
  socket.on("data", data);
  return {
    write: (text) => {
      socket.write(text);
      return true;
    },
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    restore: () => socket.removeListener("data", data),
  };
}
