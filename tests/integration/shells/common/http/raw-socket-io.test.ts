import { connect, createServer, Socket, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { rawSocketIo } from "../../../../../shells/common/http/raw-socket-io.js";

/** A server whose first connection is handed to `accept`, and a client connected to it. */
async function pair(accept: (socket: Socket) => void): Promise<{ server: Server; client: Socket }> {
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    accepted.push(socket);
    accept(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
  await new Promise<void>((resolve) => client.on("connect", resolve));
  return { server, client };
}

const accepted: Socket[] = [];

function received(socket: Socket, bytes: number): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("latin1");
      if (text.length >= bytes) {
        socket.removeListener("data", onData);
        resolve(text);
      }
    };
    socket.on("data", onData);
  });
}

describe("rawSocketIo, reads and writes below a socket's streams", () => {
  const open: { server: Server; client: Socket }[] = [];
  afterEach(async () => {
    for (const socket of accepted.splice(0)) socket.destroy();
    for (const { server, client } of open.splice(0)) {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("hands every chunk read to the callee and writes answers in order", async () => {
    const chunks: string[] = [];
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const sides = await pair((socket) => {
      const raw = rawSocketIo(
        socket,
        (chunk) => {
          chunks.push(chunk.toString());
          raw.write(`echo:${chunk.toString()};`);
        },
        () => undefined,
      );
      // End of stream still reaches the socket's own `end` event.
      socket.on("end", ended);
    });
    open.push(sides);
    const answers = received(sides.client, "echo:ping;".length);
    sides.client.write("ping");
    expect(await answers).toBe("echo:ping;");
    sides.client.end();
    await end;
    expect(chunks).toEqual(["ping"]);
  });

  it("stops reading while the kernel holds back a write, then says it drained", async () => {
    const seen: string[] = [];
    let drainedYet = false;
    let whole: boolean | undefined;
    let drained: () => void = () => undefined;
    const drain = new Promise<void>((resolve) => (drained = resolve));
    let readAgain: () => void = () => undefined;
    const read = new Promise<void>((resolve) => (readAgain = resolve));
    const big = "x".repeat(16 * 1024 * 1024);
    const sides = await pair((socket) => {
      const raw = rawSocketIo(
        socket,
        (chunk) => {
          seen.push(`${chunk.toString()} (drained: ${String(drainedYet)})`);
          readAgain();
        },
        () => {
          drainedYet = true;
          drained();
        },
      );
      whole = raw.write(big);
    });
    open.push(sides);
    sides.client.pause();
    sides.client.write("held back");
    const all = received(sides.client, big.length);
    sides.client.resume();
    expect((await all).length).toBe(big.length);
    await drain;
    await read;
    expect(whole).toBe(false);
    expect(seen).toEqual(["held back (drained: true)"]);
  });

  it("gives the reads back to the socket's stream when restored", async () => {
    let streamed: (text: string) => void = () => undefined;
    const text = new Promise<string>((resolve) => (streamed = resolve));
    let restored: () => void = () => undefined;
    const restore = new Promise<void>((resolve) => (restored = resolve));
    const sides = await pair((socket) => {
      const raw = rawSocketIo(
        socket,
        () => undefined,
        () => undefined,
      );
      raw.pause();
      raw.restore();
      socket.on("data", (chunk: Buffer) => streamed(chunk.toString()));
      restored();
    });
    open.push(sides);
    await restore;
    sides.client.write("for the stream");
    expect(await text).toBe("for the stream");
  });

  it("runs on the public stream API for a socket without a stream handle", () => {
    const socket = new Socket();
    const chunks: string[] = [];
    const raw = rawSocketIo(
      socket,
      (chunk) => chunks.push(chunk.toString()),
      () => undefined,
    );
    socket.emit("data", Buffer.from("via the stream"));
    raw.restore();
    socket.emit("data", Buffer.from("after restore"));
    expect(chunks).toEqual(["via the stream"]);
    socket.destroy();
  });
});
