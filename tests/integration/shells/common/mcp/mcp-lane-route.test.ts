import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Edge } from "../../../../../shells/common/http/edge.js";
import { createFastLane } from "../../../../../shells/common/http/fast-lane.js";
import { toNodeListener } from "../../../../../shells/common/http/framework-internals.js";
import { requestIdConcern } from "../../../../../shells/common/http/request-id.js";
import { mcpLaneRoute } from "../../../../../shells/common/mcp/mcp-lane-route.js";
import { mountMcpHttp } from "../../../../../shells/common/mcp/mount-mcp-http.js";
import { createToolCatalog } from "../../../../../shells/common/mcp/tool-catalog.js";
import { TEST_TOOLS } from "../../../../unit/shells/common/mcp/test-tools.js";

const MAX_BODY = 4096;

/** A server on a free loopback port and its base URL. */
async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

/**
 * Two real HTTP servers over the same catalog: `sdk` answers everything through the SDK
 * transport (the Hono app, where every message goes through the SDK), `fast` puts the fast lane
 * with the MCP route in front of that same app and counts what it hands over.
 */
describe("the MCP lane route over real HTTP, against the SDK path", () => {
  let sdk: { server: Server; url: string };
  let fast: { server: Server; url: string };
  let handedOver = 0;

  beforeAll(async () => {
    const catalog = createToolCatalog(TEST_TOOLS, { onServerFault: () => undefined });
    const app = new Hono();
    const edge = new Edge([requestIdConcern({ scoped: true })]);
    edge.mount(app, "request-id");
    mountMcpHttp(app, {
      info: { name: "test-mcp", version: "1.2.3" },
      catalog,
      maxBodyBytes: MAX_BODY,
    });
    const viaSdk = toNodeListener(app.fetch);
    sdk = await listen(viaSdk);
    const routes = new Map([["/mcp", mcpLaneRoute(catalog)]]);
    fast = await listen(
      createFastLane({ edge, routes, maxBodyBytes: MAX_BODY }, (req, res) => {
        handedOver++;
        void viaSdk(req, res);
      }),
    );
  });

  afterAll(async () => {
    for (const { server } of [sdk, fast]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  /** Status, content type and body bytes (as hex) of an answer. */
  async function seen(res: Response) {
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      body: Buffer.from(await res.arrayBuffer()).toString("hex"),
    };
  }

  /** The same request to both servers: what the fast one answered, then the SDK one. */
  async function both(body: unknown, headers: Record<string, string> = {}) {
    const [a, b] = await Promise.all([post(fast.url, body, headers), post(sdk.url, body, headers)]);
    return [await seen(a), await seen(b)] as const;
  }

  const call = (id: string | number, name: string, args?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: args === undefined ? { name } : { name, arguments: args },
  });

  it.each([
    ["a successful call", call(1, "shout", { text: 'hi "there" \u2028 ☃' })],
    ["a call with a string id", call("req-7", "shout", { text: "x" })],
    ["a call whose tool fails", call(2, "shout", { text: "fail" })],
    ["a call whose tool crashes (no internal message leaks)", call(3, "shout", { text: "crash" })],
    ["a call with a missing parameter", call(4, "shout", {})],
    ["a call with a parameter of the wrong type", call(4, "shout", { text: 5 })],
    ["a call without arguments", call(5, "shout")],
    ["a call to an unknown tool", call(6, "nope", {})],
    ["an async call that answers", call(7, "later", { text: "ok" })],
    ["an async call that rejects", call(8, "later", {})],
    ["tools/list", { jsonrpc: "2.0", id: 9, method: "tools/list" }],
    ["ping", { jsonrpc: "2.0", id: "p", method: "ping" }],
  ])("answers %s itself, byte for byte as the SDK does", async (_name, body) => {
    const before = handedOver;
    const [viaFast, viaSdk] = await both(body);
    expect(handedOver).toBe(before);
    expect(viaFast.status).toBe(200);
    expect(viaFast).toEqual(viaSdk);
    expect(Buffer.from(viaFast.body, "hex").toString()).not.toContain("/srv/secret");
  });

  it.each([
    ["initialize", { jsonrpc: "2.0", id: 0, method: "initialize", params: initializeParams() }, {}],
    ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }, {}],
    ["a batch", [call(1, "shout", { text: "a" }), { jsonrpc: "2.0", id: 2, method: "ping" }], {}],
    ["an unknown method", { jsonrpc: "2.0", id: 1, method: "foo/bar" }, {}],
    ["a request with _meta", { ...call(1, "shout", { text: "a" }), _meta: {} }, {}],
    ["malformed JSON", '{"jsonrpc":', {}],
    ["JSON that is no request", "42", {}],
    ["an empty batch", "[]", {}],
    ["a body over the limit", call(1, "shout", { text: "x".repeat(MAX_BODY) }), {}],
    [
      "an unsupported protocol version",
      call(1, "shout", { text: "a" }),
      { "Mcp-Protocol-Version": "1999-01-01" },
    ],
    [
      "a body with a byte order mark",
      `\ufeff${JSON.stringify(call(1, "shout", { text: "a" }))}`,
      {},
    ],
  ])(
    "hands %s over to the app, which answers as the SDK path does",
    async (_name, body, headers: Record<string, string>) => {
      const before = handedOver;
      const [viaFast, viaSdk] = await both(body, headers);
      expect(handedOver).toBe(before + 1);
      expect(viaFast).toEqual(viaSdk);
    },
  );

  it("hands other methods, paths and content types over to the app", async () => {
    const before = handedOver;
    expect((await fetch(fast.url)).status).toBe(405);
    expect((await post(fast.url.replace("/mcp", "/other"), call(1, "shout", {}))).status).toBe(404);
    const plain = await fetch(fast.url, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify(call(1, "shout", { text: "a" })),
    });
    expect(plain.status).toBe(415);
    expect(handedOver).toBe(before + 3);
  });

  // From mount-mcp-http.test.ts, where the fast answers were given inside the Hono route.
  it.each([
    ["a successful call", call(1, "shout", { text: 'hi "there" \u2028' })],
    ["a call with a string id", call("req-7", "shout", { text: "x" })],
    ["a call whose tool fails", call(2, "shout", { text: "fail" })],
    ["a call whose tool crashes", call(3, "shout", { text: "crash" })],
    ["a call with a missing parameter", call(4, "shout", {})],
    ["a call without arguments", call(5, "shout")],
    ["a call to an unknown tool", call(6, "nope", {})],
    ["an async call that rejects", call(7, "later", {})],
    ["tools/list", { jsonrpc: "2.0", id: 8, method: "tools/list" }],
    ["ping", { jsonrpc: "2.0", id: 9, method: "ping" }],
  ])(
    "answers %s with the same status and bytes on the fast path as through the SDK",
    async (_name, body) => {
      const [a, b] = await Promise.all([post(fast.url, body), post(sdk.url, body)]);
      expect(a.status).toBe(200);
      expect(a.status).toBe(b.status);
      expect(a.headers.get("content-type")).toBe(b.headers.get("content-type"));
      expect(await a.text()).toBe(await b.text());
    },
  );

  it.each([
    [
      "a non-string tool name",
      { name: 5, arguments: {} },
      "params.name must be a string naming a tool",
    ],
    ["a missing tool name", { arguments: {} }, "params.name must be a string naming a tool"],
    [
      "arguments that are not an object",
      { name: "shout", arguments: "hi" },
      "params.arguments must be an object of named parameters",
    ],
    [
      "arguments that are an array",
      { name: "shout", arguments: ["hi"] },
      "params.arguments must be an object of named parameters",
    ],
  ])(
    "answers a tools/call with %s with -32602 naming the field (where the SDK says -32603)",
    async (_name, params, message) => {
      const body = { jsonrpc: "2.0", id: 11, method: "tools/call", params };
      expect(await (await post(fast.url, body)).json()).toEqual({
        jsonrpc: "2.0",
        id: 11,
        error: { code: -32602, message },
      });
      expect(await (await post(sdk.url, body)).json()).toMatchObject({
        id: 11,
        error: { code: expect.any(Number) },
      });
    },
  );

  it("echoes a sane X-Request-Id, or assigns one, and runs the call under it", async () => {
    const given = await post(fast.url, call(1, "shout", { text: "who" }), {
      "X-Request-Id": "trace-77",
    });
    expect(given.headers.get("x-request-id")).toBe("trace-77");
    expect(await given.json()).toMatchObject({
      result: { structuredContent: { request_id: "trace-77" } },
    });
    const assigned = await post(fast.url, call(2, "shout", { text: "who" }), {
      "X-Request-Id": "not sane",
    });
    const id = assigned.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await assigned.json()).toMatchObject({
      result: { structuredContent: { request_id: id } },
    });
  });
});

function initializeParams() {
  return {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "0" },
  };
}
