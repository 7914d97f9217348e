import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { bearerAuth } from "../../../../../shells/common/http/bearer-auth.js";
import { mountMcpHttp } from "../../../../../shells/common/mcp/mount-mcp-http.js";
import { createToolCatalog } from "../../../../../shells/common/mcp/tool-catalog.js";
import { TEST_TOOLS } from "./test-tools.js";

const UNAUTHORIZED = { jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" }, id: null };

function makeApp(token = ""): Hono {
  const app = new Hono();
  if (token !== "") app.use("*", bearerAuth({ token, body: () => UNAUTHORIZED }));
  const catalog = createToolCatalog(TEST_TOOLS, { onServerFault: () => undefined });
  mountMcpHttp(app, {
    info: { name: "test-mcp", version: "1.2.3" },
    catalog,
    maxBodyBytes: 4096,
  });
  return app;
}

function post(app: Hono, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request("/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const call = (id: string | number, name: string, args?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: args === undefined ? { name } : { name, arguments: args },
});

describe("mountMcpHttp", () => {
  // Two apps alike: every message goes through the SDK transport here. What the fast lane
  // answers in front of the app, and that it answers it as the SDK does, is tested over real
  // HTTP (tests/integration/shells/common/mcp/mcp-lane-route.test.ts).
  const fast = makeApp();
  const sdk = makeApp();

  it("answers a batch through the SDK, one response per request", async () => {
    const res = await post(fast, [
      call(1, "shout", { text: "a" }),
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(res.status).toBe(200);
    const bodies = (await res.json()) as { id: number }[];
    expect(bodies.map((body) => body.id)).toEqual([1, 2]);
  });

  it("answers many concurrent requests through the SDK, each with its own answers", async () => {
    // The SDK servers behind the slow path are kept and reused between requests.
    const batches = Array.from({ length: 24 }, (_, i) => [
      call(i, "shout", { text: `n${i}` }),
      { jsonrpc: "2.0", id: `p${i}`, method: "ping" },
    ]);
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(batches.map((batch) => post(sdk, batch)));
      const bodies = (await Promise.all(answers.map((res) => res.json()))) as {
        id: number | string;
        result: { structuredContent?: { text: string } };
      }[][];
      bodies.forEach((body, i) => {
        expect(body.map((answer) => answer.id)).toEqual([i, `p${i}`]);
        expect(body[0]?.result.structuredContent?.text).toBe(`N${i}`);
      });
    }
  });

  it("returns the result as structuredContent and as the same JSON in one text item", async () => {
    const res = await post(fast, call(1, "shout", { text: "hi" }));
    const { result } = (await res.json()) as {
      result: { content: { text: string }[]; structuredContent: unknown };
    };
    expect(result.structuredContent).toEqual({
      text: "HI",
      html: "<b>&</b>",
      nested: { list: [1, "é"] },
    });
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(result.structuredContent);
  });

  it("answers invalid parameters with JSON-RPC -32602 naming the parameter", async () => {
    const res = await post(fast, call(4, "shout", { text: 5 }));
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32602, message: "parameter 'text' is required and must be a string" },
    });
  });

  it("answers a server fault with -32603", async () => {
    const res = await post(fast, call(3, "shout", { text: "crash" }));
    const body = (await res.json()) as { error: { code: number } };
    expect(body.error.code).toBe(-32603);
  });

  it("accepts a missing, application/json or */* Accept header and answers plain JSON", async () => {
    for (const accept of [undefined, "application/json", "*/*", "text/event-stream"]) {
      const headers: Record<string, string> = accept === undefined ? {} : { Accept: accept };
      for (const app of [fast, sdk]) {
        const res = await post(app, { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/json");
      }
    }
  });

  it("completes the SDK handshake: initialize, notifications/initialized, then calls", async () => {
    const init = await post(fast, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    });
    expect(init.status).toBe(200);
    expect(await init.json()).toMatchObject({
      id: 0,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "test-mcp", version: "1.2.3" },
      },
    });
    const initialized = await post(fast, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(initialized.status).toBe(202);
    const list = await post(
      fast,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
  });

  it("requires Content-Type application/json (415)", async () => {
    const res = await fast.request("/mcp", {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
  });

  it("refuses bodies over the limit with 413, whether declared or streamed", async () => {
    const big = JSON.stringify(call(1, "shout", { text: "x".repeat(5000) }));
    expect((await post(fast, big)).status).toBe(413);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const res = await fast.request("/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: streamed,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("answers malformed JSON with 400 and -32700", async () => {
    const res = await post(fast, "{not json");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32700 } });
  });

  it("answers a message nested deeper than 64 levels with 400 and -32600, and 64 levels as usual", async () => {
    const nested = (depth: number) =>
      JSON.stringify(call(7, "shout", { text: "x", extra: 0 })).replace(
        '"extra":0',
        `"extra":${"[".repeat(depth)}${"]".repeat(depth)}`,
      );
    const deep = await post(fast, nested(62)); // the envelope's params and arguments: 2 more
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({
      error: {
        code: -32600,
        message:
          "Invalid Request: nested deeper than 64 levels of arrays and objects (no MCP message needs more); not read",
      },
    });
    const within = await post(fast, nested(61));
    expect(within.status).toBe(200);
    expect(await within.json()).not.toMatchObject({ error: { code: -32600 } });
  });

  it.each([
    ["a number", 42],
    ["a string", "tools/list"],
    ["null", null],
    ["an object without jsonrpc", { id: 1, method: "ping" }],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 1, method: "ping" }],
    ["a non-string method", { jsonrpc: "2.0", id: 1, method: 7 }],
    ["an object that is neither request nor response", { jsonrpc: "2.0", id: 1 }],
    ["a batch holding a number", [{ jsonrpc: "2.0", id: 1, method: "ping" }, 3]],
    ["an object id (issue 26)", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }],
    ["a fractional id (issue 26)", { jsonrpc: "2.0", id: 1.5, method: "ping" }],
    ["string params (issue 26)", { jsonrpc: "2.0", id: 1, method: "tools/call", params: "x" }],
    ["array params (issue 26)", { jsonrpc: "2.0", id: 1, method: "ping", params: [1] }],
  ])(
    "answers valid JSON that is no JSON-RPC request (%s) with 400 and -32600, not -32700 (issue 8)",
    async (_name, body) => {
      for (const app of [fast, sdk]) {
        const res = await post(app, JSON.stringify(body));
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
        });
      }
    },
  );

  it.each([
    ["without params", undefined, "params is required: { name, arguments }"],
    ["with a numeric name", { name: 5 }, "params.name must be a string naming a tool"],
    [
      "with string arguments",
      { name: "shout", arguments: "x" },
      "params.arguments must be an object of named parameters",
    ],
  ])(
    "answers a tools/call %s with -32602 naming the field, not a schema dump (issue 26)",
    async (_name, params, message) => {
      const res = await post(sdk, { jsonrpc: "2.0", id: 7, method: "tools/call", params });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message } });
    },
  );

  it("answers an empty batch with 400 and -32600, not 202 (issue 8)", async () => {
    const res = await post(fast, "[]");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid Request: an empty batch holds no JSON-RPC message" },
      id: null,
    });
  });

  it("still answers a notification with 202 and a batch of requests with 200", async () => {
    const note = await post(fast, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
    const batch = await post(fast, [{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(batch.status).toBe(200);
  });

  it("answers GET and DELETE on the MCP path with 405 and Allow: POST", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await fast.request("/mcp", { method });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ error: { code: -32000 } });
    }
  });

  it("leaves requests with an unsupported protocol version header to the SDK, which refuses them", async () => {
    const res = await post(fast, call(1, "shout", { text: "x" }), {
      "Mcp-Protocol-Version": "1999-01-01",
    });
    expect(res.status).toBe(400);
  });
});

describe("bearerAuth", () => {
  const app = makeApp("s3cret");
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };

  it("lets a request with exactly the configured bearer token through", async () => {
    expect((await post(app, list, { Authorization: "Bearer s3cret" })).status).toBe(200);
  });

  it.each([
    ["no header", undefined],
    ["a wrong token", "Bearer nope"],
    ["a lower-case scheme", "bearer s3cret"],
    ["another scheme", "Token s3cret"],
    ["a token with extra text", "Bearer s3cret2"],
    ["an empty token", "Bearer "],
  ])("answers 401 with WWW-Authenticate: Bearer for %s", async (_name, header) => {
    const res = await post(app, list, header === undefined ? {} : { Authorization: header });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(await res.json()).toMatchObject({ error: { code: -32001 }, id: null });
  });

  it("guards every path and method, not only the MCP route", async () => {
    expect((await app.request("/elsewhere")).status).toBe(401);
    expect((await app.request("/mcp", { method: "GET" })).status).toBe(401);
  });
});
