import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../../core/sql/results.js";
import { OriginPolicy } from "../../../../../shells/common/http/origin-check.js";
import { createMemoryListener } from "../../../../../shells/memsvc/http/index.js";
import { createStartingListener } from "../../../../../shells/memsvc/http/starting-listener.js";
import { createSqlsvcListener } from "../../../../../shells/sqlsvc/sqlsvc-app.js";
import { close, listen, makeMemory } from "../../memsvc/http/fast-path-fixture.js";

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** One request over real HTTP with the given Host and Origin (fetch may not set Host). */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const JSON_TYPE = { "Content-Type": "application/json" };
const MCP_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const toolkit = { validate: () => ({ ok: true, result: { valid: true } }) } as never as SqlToolkit;

/** The requests a rebinding page would send: each route kind, lane and app alike. */
const memoryRoutes: readonly (readonly [string, string, string | undefined])[] = [
  ["GET", "/v1/export", undefined],
  ["GET", "/healthz", undefined],
  ["POST", "/v1/remember", JSON.stringify({ content: "planted by a web page" })],
  ["POST", "/v1/search", JSON.stringify({ query: "secret" })],
  ["POST", "/mcp", MCP_LIST],
];

/**
 * The memory service's two refusals on each of `routes` of the server `target()` names: 421 under
 * a rebound Host, 403 from a foreign Origin, each with the `{error}` body.
 */
function itRefusesForeignNamesAndOrigins(
  routes: typeof memoryRoutes,
  target: () => { readonly url: string; readonly port: string },
): void {
  it.each(routes)(
    "refuses %s %s under a rebound name with 421 {error}",
    async (method, path, body) => {
      const { url, port } = target();
      const answer = await send(
        url,
        method,
        path,
        { ...JSON_TYPE, Host: `evil.example:${port}` },
        body,
      );
      expect(answer).toEqual({
        status: 421,
        body: {
          error: expect.stringMatching(/^host 'evil\.example' is not served here/) as unknown,
        },
      });
    },
  );

  it.each(routes)(
    "refuses %s %s from a foreign Origin with 403 {error}",
    async (method, path, body) => {
      const { url, port } = target();
      const answer = await send(
        url,
        method,
        path,
        { ...JSON_TYPE, Host: `127.0.0.1:${port}`, Origin: "https://evil.example" },
        body,
      );
      expect(answer).toEqual({
        status: 403,
        body: {
          error:
            "origin 'https://evil.example' is not allowed to call this service (add it with the allowed-origins setting)",
        },
      });
    },
  );
}

describe.each([
  ["fast lane", true],
  ["framework path", false],
])("memsvc Host and Origin checks over HTTP, %s (issue 26)", (_name, fastPath) => {
  let server: Awaited<ReturnType<typeof listen>>;
  let port: string;
  beforeAll(async () => {
    const origins = new OriginPolicy({ listenHost: "127.0.0.1", port: 0 });
    server = await listen(
      createMemoryListener({ memory: await makeMemory(), version: "0", fastPath, origins }),
    );
    port = new URL(server.url).port;
    origins.boundTo(Number(port));
  });
  afterAll(() => close(server));

  itRefusesForeignNamesAndOrigins(memoryRoutes, () => ({ url: server.url, port }));

  it("serves requests without Origin, and from its own origins", async () => {
    const remember = JSON.stringify({ content: "kept" });
    for (const headers of [
      { Host: `127.0.0.1:${port}` },
      { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
      { Host: `127.0.0.1:${port}`, Origin: `http://localhost:${port}` },
    ]) {
      const answer = await send(
        server.url,
        "POST",
        "/v1/remember",
        { ...JSON_TYPE, ...headers },
        remember,
      );
      expect(answer.status, JSON.stringify(headers)).toBe(200);
    }
    expect((await send(server.url, "GET", "/v1/stats", { Host: `[::1]:${port}` })).status).toBe(
      200,
    );
    const mcp = await send(
      server.url,
      "POST",
      "/mcp",
      { ...JSON_TYPE, Host: `localhost:${port}` },
      MCP_LIST,
    );
    expect(mcp.status).toBe(200);
  });
});

describe.each([
  ["fast lane", true],
  ["framework path", false],
])("sqlsvc-mcp Host and Origin checks over HTTP, %s (issue 26)", (_name, fastPath) => {
  let server: Awaited<ReturnType<typeof listen>>;
  let port: string;
  beforeAll(async () => {
    const origins = new OriginPolicy({ listenHost: "127.0.0.1", port: 0 });
    server = await listen(
      createSqlsvcListener({ toolkit, version: "0", authToken: "", fastPath, origins }),
    );
    port = new URL(server.url).port;
    origins.boundTo(Number(port));
  });
  afterAll(() => close(server));

  it("refuses /mcp under a rebound name (421) and from a foreign Origin (403), in its JSON-RPC shape", async () => {
    const rebound = await send(
      server.url,
      "POST",
      "/mcp",
      { ...JSON_TYPE, Host: `evil.example:${port}` },
      MCP_LIST,
    );
    expect(rebound).toMatchObject({
      status: 421,
      body: { jsonrpc: "2.0", id: null, error: { code: -32000 } },
    });
    const foreign = await send(
      server.url,
      "POST",
      "/mcp",
      { ...JSON_TYPE, Host: `127.0.0.1:${port}`, Origin: "http://evil.example" },
      MCP_LIST,
    );
    expect(foreign).toEqual({
      status: 403,
      body: {
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message:
            "origin 'http://evil.example' is not allowed to call this service (add it with the allowed-origins setting)",
        },
        id: null,
      },
    });
    const other = await send(server.url, "GET", "/anything", { Host: "evil.example" });
    expect(other.status).toBe(421);
  });

  it("serves /mcp without Origin and from its own origin", async () => {
    for (const headers of [
      { Host: `127.0.0.1:${port}` },
      { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
    ]) {
      const answer = await send(server.url, "POST", "/mcp", { ...JSON_TYPE, ...headers }, MCP_LIST);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        result: { tools: expect.any(Array) as unknown },
      });
    }
  });
});

describe("memsvc's Host and Origin checks while it starts, before the store is loaded (issue 26)", () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let port: string;
  beforeAll(async () => {
    const origins = new OriginPolicy({ listenHost: "127.0.0.1", port: 0 });
    server = await listen(
      createStartingListener({ status: () => "replaying the write journal", origins }),
    );
    port = new URL(server.url).port;
    origins.boundTo(Number(port));
  });
  afterAll(() => close(server));

  const starting: typeof memoryRoutes = [...memoryRoutes, ["GET", "/readyz", undefined]];

  itRefusesForeignNamesAndOrigins(starting, () => ({ url: server.url, port }));

  it("answers its own names and origins as a starting service does", async () => {
    const own = { Host: `localhost:${port}`, Origin: `http://localhost:${port}` };
    expect(await send(server.url, "GET", "/healthz", own)).toEqual({
      status: 200,
      body: { status: "ok" },
    });
    expect(await send(server.url, "GET", "/readyz", { Host: `127.0.0.1:${port}` })).toEqual({
      status: 503,
      body: { error: "starting: replaying the write journal" },
    });
    const remember = await send(server.url, "POST", "/v1/remember", { ...JSON_TYPE, ...own }, "{}");
    expect(remember.status).toBe(503);
  });
});
