import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edgeOf } from "../../../../../shells/common/http/edge.js";
import { createFastLane } from "../../../../../shells/common/http/fast-lane.js";
import { toNodeListener } from "../../../../../shells/common/http/framework-internals.js";
import { createMemoryApp } from "../../../../../shells/memsvc/http/index.js";
import { memoryLaneRoutes } from "../../../../../shells/memsvc/http/memory-fast-path.js";
import { memoryJsonCalls } from "../../../../../shells/memsvc/http/memory-json-calls.js";
import { AUTH, close, listen, makeMemory, TOKEN } from "./fast-path-fixture.js";
import { recordingLogger } from "../../../../unit/shells/memsvc/http/memory-app-fixture.js";

const MAX_BODY = 4096;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Two real HTTP servers over two identical services: `plain` is the Hono app alone, `fast` puts
 * the fast lane in front of the same app (wired as `createMemoryListener` wires it) and counts
 * what it hands over. Every request goes to both; status, the headers that matter and the body
 * bytes must be equal.
 */
describe("the memory fast path over real HTTP, against the Hono app", () => {
  let plain: { server: Server; url: string };
  let fast: { server: Server; url: string };
  let handedOver = 0;

  beforeAll(async () => {
    const options = { version: "9.9.9", authToken: TOKEN, maxBodyBytes: MAX_BODY };
    plain = await listen(
      toNodeListener(
        createMemoryApp({
          ...options,
          memory: await makeMemory(),
          logger: recordingLogger().logger,
        }).fetch,
      ),
    );
    const memory = await makeMemory();
    const { logger } = recordingLogger();
    const hono = createMemoryApp({ ...options, memory, logger });
    const app = toNodeListener(hono.fetch);
    const edge = edgeOf(hono);
    if (edge === undefined) throw new Error("the app mounts its edge");
    fast = await listen(
      createFastLane(
        {
          edge,
          routes: memoryLaneRoutes(memory, memoryJsonCalls(), logger),
          maxBodyBytes: MAX_BODY,
        },
        (req, res) => {
          handedOver++;
          void app(req, res);
        },
      ),
    );
    // The same memories in both, through the fast path and the app respectively.
    const seed = [
      { content: "deploy with the blue-green script", type: "procedure", tags: ["deploy"] },
      { content: "the staging database is postgres 16", scope: "project", project: "alpha" },
      { content: "retry the flaky payment test once", type: "rule", scope: "permanent" },
      { content: "alpha uses redis for sessions", scope: "project", project: "alpha" },
    ];
    for (const memory of seed) await both("/v1/remember", memory);
  });

  afterAll(async () => {
    await Promise.all([close(plain), close(fast)]);
  });

  /** A JSON POST with the token; a header given as "" is left out. */
  function send(url: string, path: string, body: unknown, headers: Record<string, string>) {
    const all = { "Content-Type": "application/json", ...AUTH, ...headers };
    return fetch(url + path, {
      method: "POST",
      headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== "")),
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  /** What a client sees of an answer: status, the headers that matter, the body bytes. */
  async function seen(res: Response) {
    const id = res.headers.get("x-request-id") ?? "";
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      length: res.headers.get("content-length"),
      authenticate: res.headers.get("www-authenticate"),
      allow: res.headers.get("allow"),
      id: UUID.test(id) ? "a fresh UUID" : id,
      body: await res.text(),
    };
  }

  /** The same request to both servers, one after the other: the fast one's answer, the app's. */
  async function both(path: string, body: unknown, headers: Record<string, string> = {}) {
    const viaFast = await seen(await send(fast.url, path, body, headers));
    const viaApp = await seen(await send(plain.url, path, body, headers));
    return [viaFast, viaApp] as const;
  }

  const remember = { content: "write the postmortem within two days", tags: ["incident"] };
  it.each([
    ["a search", "/v1/search", { message: "deploy script" }, {}],
    [
      "a search with a project filter and extra fields",
      "/v1/search",
      { message: "database sessions", project: "alpha", limit: 3, include: ["tags", "project"] },
      {},
    ],
    ["a search with empty results", "/v1/search", { message: "x", project: "nowhere" }, {}],
    [
      "a search with its client's request id",
      "/v1/search",
      { message: "x" },
      { "X-Request-Id": "t-1" },
    ],
    [
      "a search with a charset in the content type",
      "/v1/search",
      { message: "payment" },
      { "Content-Type": "application/json; charset=utf-8" },
    ],
    [
      "a search with a quoted UTF-8 charset",
      "/v1/search",
      { message: "payment" },
      { "Content-Type": 'application/json;charset="UTF8"' },
    ],
    ["a recall", "/v1/recall", { message: "how do we deploy?" }, {}],
    ["a recall with a budget", "/v1/recall", { message: "deploy postgres redis", budget: 30 }, {}],
    ["a recall with a project", "/v1/recall", { message: "sessions", project: "alpha" }, {}],
    ["a remember", "/v1/remember", remember, {}],
    ["a duplicate remember", "/v1/remember", remember, {}],
    [
      "a batch",
      "/v1/remember/batch",
      { memories: [{ content: "one" }, { content: "two", scope: "session" }, { content: "one" }] },
      {},
    ],
  ])("answers %s itself, as the app does", async (_name, path, body, headers) => {
    const before = handedOver;
    const [viaFast, viaApp] = await both(path, body, headers);
    expect(handedOver).toBe(before);
    expect(viaFast.status).toBe(200);
    expect(viaFast).toEqual(viaApp);
  });

  it.each([
    ["a search whose store is down (no host in the body)", "store down"],
    ["a search that crashes (no message in the body)", "crash"],
  ])("answers %s itself with the app's 500", async (_name, message) => {
    const before = handedOver;
    const [viaFast, viaApp] = await both("/v1/search", { message });
    expect(handedOver).toBe(before);
    expect(viaFast.status).toBe(500);
    expect(viaFast).toEqual(viaApp);
    expect(viaFast.body).not.toMatch(/10\.0\.0\.7|secret/);
  });

  it.each([
    ["malformed JSON", "/v1/search", '{"message":', {}],
    ["an empty body", "/v1/search", "", {}],
    ["a body with a byte order mark", "/v1/search", '\ufeff{"message":"x"}', {}],
    ["an array", "/v1/recall", "[1]", {}],
    ["an unknown field", "/v1/search", { message: "x", limt: 3 }, {}],
    ["a field of the wrong type", "/v1/recall", { message: "x", budget: "lots" }, {}],
    ["a missing field", "/v1/remember", { type: "fact" }, {}],
    ["a lone surrogate", "/v1/remember", '{"content":"a\\ud800"}', {}],
    ["a batch with one bad item", "/v1/remember/batch", { memories: [{ content: "ok" }, {}] }, {}],
    [
      "a body declared in another charset",
      "/v1/remember",
      { content: "café" },
      { "Content-Type": 'application/json; charset="ISO-8859-1"' },
    ],
  ])("hands %s over to the app, which refuses it", async (_name, path, body, headers) => {
    const before = handedOver;
    const [viaFast, viaApp] = await both(path, body, headers);
    expect(handedOver).toBe(before + 1);
    expect(viaFast.status).toBe(400);
    expect(viaFast).toEqual(viaApp);
  });

  it.each([
    ["no token", "/v1/search", { message: "x" }, { Authorization: "" }],
    ["a wrong token", "/v1/search", { message: "x" }, { Authorization: "Bearer nope" }],
    ["a body over the limit", "/v1/remember", { content: "x".repeat(MAX_BODY) }, {}],
    ["another content type", "/v1/search", { message: "x" }, { "Content-Type": "text/plain" }],
    ["a query string", "/v1/search?limit=1", { message: "deploy" }, {}],
    ["another route", "/v1/stats", {}, {}],
  ])("leaves %s to the app without reading it", async (_name, path, body, headers) => {
    const before = handedOver;
    const [viaFast, viaApp] = await both(path, body, headers);
    expect(handedOver).toBe(before + 1);
    expect(viaFast).toEqual(viaApp);
  });

  it("leaves other methods on the hot paths to the app (405)", async () => {
    const before = handedOver;
    const get = async (url: string) => seen(await fetch(`${url}/v1/search`, { headers: AUTH }));
    const viaFast = await get(fast.url);
    expect(viaFast.status).toBe(405);
    expect(viaFast).toEqual(await get(plain.url));
    expect(handedOver).toBe(before + 1);
  });
});
