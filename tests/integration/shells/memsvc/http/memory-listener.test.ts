import { connect } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServiceMetrics } from "../../../../../shells/common/service-metrics.js";
import { createMemoryListener } from "../../../../../shells/memsvc/http/index.js";
import { AUTH, close, listen, makeMemory, TOKEN } from "./fast-path-fixture.js";
import { recordingLogger } from "../../../../unit/shells/memsvc/http/memory-app-fixture.js";

/**
 * The listener `memsvc serve` runs: what the fast path answers carries the same request id, log
 * line, metrics and auth as what the app answers.
 */
describe("createMemoryListener over real HTTP", () => {
  const { logger, lines } = recordingLogger();
  const metrics = createServiceMetrics("memsvc");
  let served: { server: Server; url: string };

  beforeAll(async () => {
    const memory = await makeMemory();
    served = await listen(
      createMemoryListener({ memory, version: "9.9.9", authToken: TOKEN, logger, metrics }),
    );
  });

  afterAll(() => close(served));

  const search = (message: string, headers: Record<string, string>) =>
    fetch(`${served.url}/v1/search`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({ message }),
    });

  it("answers with the client's request id, one request line and the metrics", async () => {
    const res = await search("deploys", { ...AUTH, "X-Request-Id": "fast-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("fast-1");
    expect(await res.json()).toEqual({ results: [] });
    expect(lines.filter((line) => line.fields["request_id"] === "fast-1")).toEqual([
      {
        level: "info",
        msg: "request",
        fields: expect.objectContaining({
          method: "POST",
          path: "/v1/search",
          status: 200,
          ms: expect.any(Number),
        }),
      },
    ]);
    const text = await (await fetch(`${served.url}/metrics`, { headers: AUTH })).text();
    expect(text).toContain(
      'memsvc_http_requests_total{method="POST",route="/v1/search",status="200"} 1',
    );
  });

  it("logs the cause of a 500 under the request id, and sends none of it", async () => {
    const res = await search("store down", { ...AUTH, "X-Request-Id": "fails-1" });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "vector store unavailable" });
    const logged = lines.filter((line) => line.fields["request_id"] === "fails-1");
    expect(logged.map((line) => [line.level, line.msg])).toEqual([
      ["error", "request failed"],
      ["info", "request"],
    ]);
    expect(String(logged[0]?.fields["cause"])).toContain("10.0.0.7");
  });

  it("logs a request the client aborted mid-body at debug level, as the app does", async () => {
    const socket = connect(Number(new URL(served.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    // 100 Continue says the service has the headers and waits for the body: the request is in.
    const continued = new Promise((resolve) => socket.once("data", resolve));
    socket.write(
      "POST /v1/remember HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        `Authorization: Bearer ${TOKEN}\r\nX-Request-Id: gone-1\r\nContent-Length: 100\r\n` +
        "Expect: 100-continue\r\n\r\n",
    );
    expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write('{"content"');
    socket.destroy();
    await vi.waitFor(() => {
      const logged = lines.filter((line) => line.fields["request_id"] === "gone-1");
      expect(logged.map((line) => [line.level, line.msg, line.fields["status"]])).toEqual([
        ["debug", "request aborted by the client", undefined],
        ["info", "request", 400],
      ]);
    });
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { Authorization: "Bearer nope" }],
  ])("refuses a search with %s: 401", async (_name, headers) => {
    const res = await search("deploys", headers);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
  });
});
