import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlToolkit } from "../../../../core/sql/results.js";
import { createServiceMetrics } from "../../../../shells/common/service-metrics.js";
import { createSqlsvcListener } from "../../../../shells/sqlsvc/sqlsvc-app.js";
import { recordingLogger } from "../../../unit/shells/memsvc/http/memory-app-fixture.js";

const toolkit = {
  validate: () => ({ ok: true, result: { valid: true } }),
} as unknown as SqlToolkit;

/**
 * The listener the server runs, over real HTTP: what the fast path answers must carry the same
 * request id, log line, metrics and auth as what the Hono app answers.
 */
describe("createSqlsvcListener over real HTTP", () => {
  const { logger, lines } = recordingLogger();
  const metrics = createServiceMetrics("sqlsvc");
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(
      createSqlsvcListener({ toolkit, version: "0", authToken: "tok", logger, metrics }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const validate = (headers: Record<string, string>) =>
    fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "validate_sql", arguments: { sql: "SELECT secret_column FROM t" } },
      }),
    });

  it("answers an authorised call with its request id, one log line and the metrics", async () => {
    const res = await validate({ Authorization: "Bearer tok", "X-Request-Id": "fast-1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("fast-1");
    expect(await res.json()).toMatchObject({
      id: 1,
      result: { structuredContent: { valid: true } },
    });
    const line = lines.find((l) => l.fields["request_id"] === "fast-1");
    expect(line).toMatchObject({
      level: "info",
      msg: "tool call",
      fields: { tool: "validate_sql", outcome: "ok" },
    });
    expect(JSON.stringify(lines)).not.toContain("secret_column");
    const text = await (
      await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer tok" } })
    ).text();
    expect(text).toContain('sqlsvc_mcp_tool_calls_total{tool="validate_sql",outcome="ok"} 1');
    expect(text).toContain('sqlsvc_http_requests_total{method="POST",route="/mcp",status="200"} 1');
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { Authorization: "Bearer nope" }],
    ["a lower-case scheme", { Authorization: "bearer tok" }],
  ])("refuses a call with %s: 401, counted, no tool run", async (_name, headers) => {
    const before = lines.length;
    const res = await validate({ ...headers, "X-Request-Id": "refused-1" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(res.headers.get("x-request-id")).toBe("refused-1");
    expect(lines.length).toBe(before);
  });

  it("logs a request the client abandons mid-body at info, without a stack (issue 26)", async () => {
    const port = new URL(base).port;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        // An unsupported protocol version takes the app's path; the body never completes.
        socket.write(
          "POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\n" +
            "X-Request-Id: abandoned-1\r\nContent-Type: application/json\r\n" +
            'Mcp-Protocol-Version: 1999-01-01\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
          () => setTimeout(() => socket.destroy(), 50),
        );
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    await expect
      .poll(() => lines.find((l) => l.fields["request_id"] === "abandoned-1"))
      .toMatchObject({
        level: "info",
        msg: "request aborted by the client",
        fields: { reason: "aborted" },
      });
    expect(lines.filter((l) => l.level === "error")).toEqual([]);
  });
});
