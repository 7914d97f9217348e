import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainServer } from "../../../../shells/common/drain-server.js";

let server: Server | undefined;
afterEach(() => server?.closeAllConnections());

/** A server whose one request is answered with "done" when `release` is called (or never). */
async function startServer() {
  let arrived!: (release: () => void) => void;
  const requested = new Promise<() => void>((resolve) => (arrived = resolve));
  server = createServer((_req, res) => arrived(() => res.end("done")));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, requested };
}

function get(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ port, host: "127.0.0.1", agent: false }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve(text));
      res.on("error", () => resolve("cut"));
    });
    req.on("error", () => resolve("cut"));
    req.end();
  });
}

describe("drainServer", () => {
  it("lets a request in flight finish, then closes and resolves true", async () => {
    const { port, requested } = await startServer();
    const answer = get(port);
    const release = await requested;
    const drained = drainServer(server as Server, 60_000);
    release();
    expect(await answer).toBe("done");
    expect(await drained).toBe(true);
    expect(server?.listening).toBe(false);
  });

  it("cuts a request still running at the deadline and resolves false", async () => {
    const { port, requested } = await startServer();
    const answer = get(port);
    await requested;
    expect(await drainServer(server as Server, 50)).toBe(false);
    expect(await answer).toBe("cut");
  });
});
