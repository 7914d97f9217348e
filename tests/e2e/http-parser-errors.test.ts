import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanupMemsvc, startMemsvc, type MemsvcProcess } from "../support/spawn-memsvc.js";
import { startSqlsvc, type SqlsvcProcess } from "../support/spawn-sqlsvc.js";

/** Writes raw bytes to the port and resolves with everything the server sent before closing. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.once("close", () => resolve(answer));
    socket.once("error", reject);
  });
}

/** Status code and parsed JSON body of a raw HTTP/1.1 answer. */
function parse(answer: string): { status: number; contentType: string; body: unknown } {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /^content-type: (.*)$/im.exec(head)?.[1] ?? "";
  return { status, contentType, body: JSON.parse(body) };
}

const BAD_FRAMING = "GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n";
const HUGE_HEADERS = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`;
const CONNECT = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n";

describe("answers from the HTTP parser, in each service's own error shape", () => {
  let memsvc: MemsvcProcess;
  let sqlsvc: SqlsvcProcess;
  beforeAll(async () => {
    [memsvc, sqlsvc] = await Promise.all([
      startMemsvc({ env: { MEMSVC_LOG_LEVEL: "debug" } }),
      startSqlsvc({ SQLSVC_MCP_PORT: "0" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([memsvc?.stop(), sqlsvc?.stop()]);
    await cleanupMemsvc();
  });

  it("memsvc: {error} bodies for bad framing (400), huge headers (431) and CONNECT (405)", async () => {
    const framing = parse(await rawExchange(memsvc.port, BAD_FRAMING));
    expect(framing).toMatchObject({ status: 400, contentType: "application/json" });
    expect((framing.body as { error: string }).error).toMatch(/^malformed HTTP request/);
    expect(parse(await rawExchange(memsvc.port, HUGE_HEADERS))).toEqual({
      status: 431,
      contentType: "application/json",
      body: { error: "request headers too large" },
    });
    expect(parse(await rawExchange(memsvc.port, CONNECT))).toEqual({
      status: 405,
      contentType: "application/json",
      body: { error: "CONNECT is not supported: this server is not a proxy" },
    });
    // Still serving afterwards.
    expect((await fetch(`${memsvc.baseUrl}/healthz`)).status).toBe(200);
  });

  it("sqlsvc-mcp: JSON-RPC error bodies for the same three", async () => {
    for (const [request, status] of [
      [BAD_FRAMING, 400],
      [HUGE_HEADERS, 431],
      [CONNECT, 405],
    ] as const) {
      const answer = parse(await rawExchange(sqlsvc.port, request));
      expect(answer).toMatchObject({
        status,
        contentType: "application/json",
        body: { jsonrpc: "2.0", id: null, error: { code: -32000 } },
      });
    }
  });

  it("both services send X-Content-Type-Options: nosniff with every kind of answer", async () => {
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "validate_sql", arguments: { sql: "SELECT 1" } },
    });
    const json = { "Content-Type": "application/json" };
    const answers = [
      // memsvc: the fast lane, the app (404, 400) and the health route.
      await fetch(`${memsvc.baseUrl}/v1/search`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ query: "anything" }),
      }),
      await fetch(`${memsvc.baseUrl}/v1/nowhere`),
      await fetch(`${memsvc.baseUrl}/v1/remember`, { method: "POST", headers: json, body: "{" }),
      await fetch(`${memsvc.baseUrl}/healthz`),
      // sqlsvc-mcp: the front end's answer, then the app's 404.
      await fetch(sqlsvc.url, { method: "POST", headers: json, body: call }),
      await fetch(`http://127.0.0.1:${sqlsvc.port}/elsewhere`),
    ];
    for (const answer of answers) {
      expect([answer.url, answer.headers.get("x-content-type-options")]).toEqual([
        answer.url,
        "nosniff",
      ]);
    }
    // The HTTP parser's own answers, written to the socket.
    for (const port of [memsvc.port, sqlsvc.port]) {
      expect(await rawExchange(port, BAD_FRAMING)).toMatch(
        /\r\nX-Content-Type-Options: nosniff\r\n/,
      );
    }
  });

  it("sqlsvc-mcp answers a POST /mcp head of bare LFs at once, not after its idle timeout", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const request = `POST /mcp HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nContent-Length: ${body.length}\n\n${body}`;
    // The idle timeout is 6 s (keep-alive 5 s and 1 s): held until then before the fix.
    const late = new Promise<string>((resolve) =>
      setTimeout(() => resolve("no answer in 3 s"), 3_000),
    );
    const answer = await Promise.race([rawExchange(sqlsvc.port, request), late]);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect((parse(answer).body as { error: { message: string } }).error.message).toMatch(
      /^malformed HTTP request/,
    );
  });

  it.each([
    ["POST /mcp without an HTTP version", "POST /mcp\r\n\r\n", "Missing host header"],
    [
      "the * target",
      "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      "Invalid URL",
    ],
  ])(
    "answers %s with 400 in each service's error shape, not an empty body (issue 26)",
    async (_name, request, reason) => {
      expect(parse(await rawExchange(memsvc.port, request))).toEqual({
        status: 400,
        contentType: "application/json",
        body: { error: `malformed HTTP request: ${reason}` },
      });
      expect(parse(await rawExchange(sqlsvc.port, request))).toEqual({
        status: 400,
        contentType: "application/json",
        body: {
          jsonrpc: "2.0",
          error: { code: -32000, message: `malformed HTTP request: ${reason}` },
          id: null,
        },
      });
    },
  );

  it("both CLIs refuse a rebound Host (421) and a foreign Origin (403), and serve their own (issue 26)", async () => {
    for (const svc of [memsvc, sqlsvc]) {
      const rebound = `GET /healthz HTTP/1.1\r\nHost: evil.example:${svc.port}\r\nConnection: close\r\n\r\n`;
      expect(parse(await rawExchange(svc.port, rebound)).status).toBe(421);
      const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
      const post = (origin: string) =>
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nOrigin: ${origin}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
      expect(parse(await rawExchange(svc.port, post("https://evil.example"))).status).toBe(403);
      // The bound port (the services listen on port 0 here) is among the allowed origins.
      expect(parse(await rawExchange(svc.port, post(`http://localhost:${svc.port}`))).status).toBe(
        200,
      );
    }
  });

  it("memsvc logs a request the client aborted mid-body at debug level, not as an error", async () => {
    const socket = connect(memsvc.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const logged = new Promise<void>((resolve) => {
      const check = (): void => {
        if (!memsvc.stderr().includes('"msg":"request aborted by the client"')) return;
        memsvc.child.stderr?.off("data", check);
        resolve();
      };
      memsvc.child.stderr?.on("data", check);
    });
    // 100 Continue says the service has the headers and waits for the body: the request is in.
    const continued = new Promise((resolve) => socket.once("data", resolve));
    socket.write(
      "POST /v1/remember HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        "Content-Length: 100\r\nExpect: 100-continue\r\n\r\n",
    );
    expect(String(await continued)).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write('{"content"');
    socket.destroy();
    await logged;
    const lines = memsvc
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines.find((l) => l.msg === "request aborted by the client")?.level).toBe("debug");
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
  });
});
