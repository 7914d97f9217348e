import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../core/sql/results.js";
import { createServiceMetrics } from "../../../../shells/common/service-metrics.js";
import {
  createSqlsvcListener,
  createSqlsvcServer,
  type SqlsvcAppOptions,
} from "../../../../shells/sqlsvc/sqlsvc-app.js";
import { recordingLogger } from "../../../unit/shells/memsvc/http/memory-app-fixture.js";

const toolkit = {
  validate: () => ({ ok: true, result: { valid: true } }),
} as unknown as SqlToolkit;

interface Answer {
  readonly status: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends `chunks` over one raw TCP connection (each its own write) and collects `count` answers,
 * or fewer if the server closes first; `closed` says whether it did.
 */
function exchange(
  port: number,
  chunks: readonly string[],
  count: number,
): Promise<{ answers: Answer[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const answers: Answer[] = [];
    let buffered = "";
    const socket = connect(port, "127.0.0.1", () => {
      let k = 0;
      const next = () => {
        const chunk = chunks[k++];
        if (chunk !== undefined) socket.write(chunk, () => setTimeout(next, 20));
      };
      next();
    });
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, closed });
    };
    const timer = setTimeout(() => done(false), 3_000);
    socket.on("data", (data: Buffer) => {
      buffered += data.toString("latin1");
      for (;;) {
        const headEnd = buffered.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const [status = "", ...lines] = buffered.slice(0, headEnd).split("\r\n");
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(":");
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers["content-length"] ?? 0);
        if (buffered.length < headEnd + 4 + length) return;
        answers.push({ status, headers, body: buffered.slice(headEnd + 4, headEnd + 4 + length) });
        buffered = buffered.slice(headEnd + 4 + length);
        if (answers.length === count) {
          // Give a closing server the moment to close.
          setTimeout(() => done(socket.readableEnded || socket.destroyed), 30);
        }
      }
    });
    socket.on("end", () => done(true));
    socket.on("error", reject);
  });
}

const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "validate_sql", arguments: { sql: "SELECT 1" } },
});

function post(extra: string, body = CALL, length = String(Buffer.byteLength(body))): string {
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n` +
    `Content-Type: application/json\r\n${extra}Content-Length: ${length}\r\n\r\n${body}`
  );
}

/** What two servers must agree on: status, body and the headers that are not per-call. */
function comparable(answer: Answer) {
  const { date: _date, "x-request-id": _id, ...headers } = answer.headers;
  return { status: answer.status, headers, body: answer.body };
}

describe("the sqlsvc-mcp front end over real TCP", () => {
  const { logger, lines } = recordingLogger();
  let front: Server;
  let plain: Server;

  beforeAll(async () => {
    const options: SqlsvcAppOptions = { toolkit, version: "0", authToken: "tok", logger };
    front = createSqlsvcServer({ ...options, metrics: createServiceMetrics("sqlsvc") });
    plain = createServer(createSqlsvcListener(options));
    for (const server of [front, plain]) {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    }
  });

  afterAll(async () => {
    for (const server of [front, plain]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const portOf = (server: Server) => (server.address() as AddressInfo).port;

  it("answers pipelined calls in order on a kept-alive connection, with their request ids", async () => {
    const two = post("X-Request-Id: one\r\n") + post("X-Request-Id: two\r\n");
    const { answers, closed } = await exchange(portOf(front), [two, post("")], 3);
    expect(answers.map((a) => a.status)).toEqual(Array(3).fill("HTTP/1.1 200 OK"));
    expect(answers.map((a) => a.headers["x-request-id"]).slice(0, 2)).toEqual(["one", "two"]);
    expect(answers[0]?.headers["connection"]).toBe("keep-alive");
    expect(JSON.parse(answers[0]?.body ?? "")).toMatchObject({
      id: 7,
      result: { structuredContent: { valid: true } },
    });
    expect(closed).toBe(false);
    expect(lines.find((l) => l.fields["request_id"] === "two")).toMatchObject({ msg: "tool call" });
  });

  it("answers pipelined calls in order on each of several open connections", async () => {
    // An idle connection keeps more than one open: each answer is held for its event-loop turn.
    const idle = connect(portOf(front), "127.0.0.1");
    await new Promise((resolve) => idle.once("connect", resolve));
    try {
      const runs = await Promise.all(
        ["a", "b", "c"].map((name) => {
          const three = ["1", "2", "3"].map((k) => post(`X-Request-Id: ${name}${k}\r\n`));
          return exchange(portOf(front), [three.join(""), post("")], 4);
        }),
      );
      for (const [k, { answers, closed }] of runs.entries()) {
        const name = ["a", "b", "c"][k] as string;
        expect(answers.map((a) => a.status)).toEqual(Array(4).fill("HTTP/1.1 200 OK"));
        expect(answers.map((a) => a.headers["x-request-id"]).slice(0, 3)).toEqual(
          ["1", "2", "3"].map((n) => name + n),
        );
        expect(JSON.parse(answers[3]?.body ?? "")).toMatchObject({ id: 7 });
        expect(closed).toBe(false);
      }
    } finally {
      idle.destroy();
    }
  });

  it("waits for a head and a body that come in pieces", async () => {
    const whole = post("X-Request-Id: pieces\r\n");
    const cut = whole.indexOf("\r\n\r\n") - 5;
    const { answers } = await exchange(
      portOf(front),
      [whole.slice(0, cut), whole.slice(cut, cut + 12), whole.slice(cut + 12)],
      1,
    );
    expect(answers[0]?.status).toBe("HTTP/1.1 200 OK");
    expect(answers[0]?.headers["x-request-id"]).toBe("pieces");
  });

  it("serves what follows a handed-over request on the same connection (GET /healthz)", async () => {
    const get = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n\r\n";
    const { answers } = await exchange(portOf(front), [post("") + get + post("")], 3);
    expect(answers.map((a) => a.status)).toEqual(Array(3).fill("HTTP/1.1 200 OK"));
    expect(JSON.parse(answers[1]?.body ?? "")).toEqual({ status: "ok" });
  });

  // Each is sent to the front end and to the same app on plain node:http: the answers (status,
  // body, headers but Date and generated ids) and whether the connection closed must be equal.
  // A smuggled second request must never be answered on its own.
  const SMUGGLED = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const chunked = (extra: string) =>
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n` +
    `Content-Type: application/json\r\n${extra}Transfer-Encoding: chunked\r\n\r\n` +
    `${Buffer.byteLength(CALL).toString(16)}\r\n${CALL}\r\n0\r\n\r\n`;
  it.each([
    ["a chunked body", chunked(""), 1],
    ["Content-Length beside Transfer-Encoding", chunked(`Content-Length: 4\r\n`) + SMUGGLED, 2],
    ["two different Content-Lengths", post(`Content-Length: 0\r\n`) + SMUGGLED, 2],
    ["two equal Content-Lengths", post(`Content-Length: ${Buffer.byteLength(CALL)}\r\n`), 1],
    ["a signed Content-Length", post("", CALL, `+${Buffer.byteLength(CALL)}`), 1],
    ["a Content-Length with a space inside", post("", CALL, `1 ${Buffer.byteLength(CALL)}`), 1],
    ["obs-fold", post("X-Folded: a\r\n b\r\n"), 1],
    ["a folded Content-Length", post(`X-A: b\r\n Content-Length: 0\r\n`) + SMUGGLED, 2],
    ["a bare LF in a header", post("X-Bare: a\nContent-Length: 0\r\n") + SMUGGLED, 2],
    ["a bare CR in a header", post("X-Bare: a\rb\r\n"), 1],
    ["a space before the colon", post("Content-Length : 0\r\n") + SMUGGLED, 2],
    ["a NUL in a value", post("X-Nul: a\u0000b\r\n"), 1],
    ["a byte over 0x7e in a value", post("X-High: caf\u00e9\r\n"), 1],
    ["Expect: 100-continue", post("Expect: 100-continue\r\n"), 1],
    ["Connection: close", post("Connection: close\r\n"), 1],
    ["Connection: upgrade", post("Connection: upgrade\r\nUpgrade: h2c\r\n"), 1],
    ["HTTP/1.0", post("").replace("HTTP/1.1", "HTTP/1.0"), 1],
    ["a query string", post("").replace("/mcp", "/mcp?x=1"), 1],
    ["an absolute target", post("").replace("/mcp", "http://127.0.0.1/mcp"), 1],
    ["a lower-case method", post("").replace("POST", "post"), 1],
    ["a leading blank line", `\r\n${post("")}`, 1],
    ["no Host", post("").replace("Host: 127.0.0.1\r\n", ""), 1],
    ["two Hosts", post("Host: evil.example\r\n"), 1],
    [
      "a Host with spaces and tabs around it",
      post("").replace("Host: 127.0.0.1", "Host:\t 127.0.0.1 \t"),
      1,
    ],
    ["a token with a trailing space", post("").replace("Bearer tok", "Bearer tok "), 1],
    ["a foreign Origin", post("Origin: http://evil.example\r\n"), 1],
    ["no token", post("").replace("Authorization: Bearer tok\r\n", ""), 1],
    ["two Authorization headers", post("Authorization: Bearer tok\r\n"), 1],
    ["an unsupported protocol version", post("Mcp-Protocol-Version: 1999-01-01\r\n"), 1],
    ["a text body", post("").replace("application/json", "text/plain"), 1],
    ["a message the lane declines", post("", '{"jsonrpc":"2.0","id":1,"method":"ping","x":1}'), 1],
    ["a body over the limit", post("", "", String(2 * 1024 * 1024)), 1],
    ["a 20 KiB header", post(`X-Big: ${"a".repeat(20 * 1024)}\r\n`), 1],
    [
      "a GET of /mcp",
      "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\n\r\n",
      1,
    ],
  ])("answers %s exactly as node:http does", async (_name, request, count) => {
    const [ours, theirs] = await Promise.all(
      [front, plain].map((server) => exchange(portOf(server), [request], count)),
    );
    expect(ours?.answers.map(comparable)).toEqual(theirs?.answers.map(comparable));
    expect(ours?.closed).toBe(theirs?.closed);
  });

  it("answers a connection that ends mid-request with a 400 in the JSON-RPC shape", async () => {
    const socket = connect(portOf(front), "127.0.0.1");
    let text = "";
    socket.on("data", (data: Buffer) => (text += data.toString()));
    await new Promise<void>((resolve) => socket.on("connect", resolve));
    socket.end(post("").slice(0, -5));
    await new Promise((resolve) => socket.on("close", resolve));
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000 },
      id: null,
    });
  });

  it("closes its idle connections when the server drains", async () => {
    const socket = connect(portOf(front), "127.0.0.1");
    await new Promise<void>((resolve) => socket.on("connect", resolve));
    socket.write(post(""));
    await new Promise((resolve) => socket.once("data", resolve));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    front.closeIdleConnections();
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});
