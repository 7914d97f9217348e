import { describe, expect, it } from "vitest";
import { FakeEmbedder, InMemoryVectorStore } from "../../../../core/testing/index.js";
import type { SqlToolkit } from "../../../../core/sql/results.js";
import { timeCalls } from "../../../../shells/memsvc/container/time-calls.js";
import { createServiceMetrics } from "../../../../shells/common/service-metrics.js";
import { createSqlsvcApp } from "../../../../shells/sqlsvc/sqlsvc-app.js";
import { makeApp, post, recordingLogger } from "../memsvc/http/memory-app-fixture.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("echoes a sane X-Request-Id and logs it on the request line", async () => {
    const { app, lines } = await makeApp();
    const res = await app.request("/healthz", { headers: { "X-Request-Id": "trace-42" } });
    expect(res.headers.get("x-request-id")).toBe("trace-42");
    expect(lines.find((l) => l.msg === "request")?.fields["request_id"]).toBe("trace-42");
  });

  it("generates a UUID when the header is missing or not 1-128 visible ASCII characters", async () => {
    const { app, lines } = await makeApp();
    for (const headers of [{}, { "X-Request-Id": "x".repeat(129) }, { "X-Request-Id": "a b" }]) {
      const res = await app.request("/v1/stats", { headers });
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
    const ids = lines.filter((l) => l.msg === "request").map((l) => l.fields["request_id"]);
    expect(new Set(ids).size).toBe(3);
  });

  it("puts the id on the error line of a failing request too", async () => {
    const { app, lines, store } = await makeApp();
    // Reads are answered by the in-process engine; a write reaches the store.
    store.upsert = () => Promise.reject(new Error("disk on fire"));
    const res = await app.request(
      "/v1/remember",
      post({ content: "a memory the store cannot take" }, { "X-Request-Id": "boom-1" }),
    );
    expect(res.status).toBe(500);
    expect(lines.find((l) => l.level === "error")?.fields["request_id"]).toBe("boom-1");
  });
});

describe("memsvc metrics", () => {
  it("serves Prometheus text on GET /metrics behind the token, counted by route pattern", async () => {
    const metrics = createServiceMetrics("memsvc");
    metrics.countMemoriesWith(() => Promise.resolve(7));
    metrics.countPendingWritesWith(() => 3);
    const { app } = await makeApp({ metrics, authToken: "tok" });
    const auth = { Authorization: "Bearer tok" };
    expect((await app.request("/metrics")).status).toBe(401);
    await app.request("/v1/remember", post({ content: "counted" }, auth));
    await app.request("/v1/memories/00000000-0000-4000-8000-000000000000", { headers: auth });
    await app.request("/nowhere/123", { headers: auth });
    const res = await app.request("/metrics", { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain(
      'memsvc_http_requests_total{method="POST",route="/v1/remember",status="200"} 1',
    );
    expect(text).toContain(
      'memsvc_http_requests_total{method="GET",route="/v1/memories/:id",status="404"} 1',
    );
    expect(text).toContain(
      'memsvc_http_requests_total{method="GET",route="unmatched",status="404"} 1',
    );
    expect(text).toContain('memsvc_http_request_duration_seconds_bucket{le="0.0005",method="POST"');
    expect(text).toContain("memsvc_memories 7");
    expect(text).toContain("memsvc_journal_pending_ids 3");
    expect(text).toContain("memsvc_process_cpu_seconds_total");
  });

  it("times vector store and embedder calls by operation and outcome", async () => {
    const metrics = createServiceMetrics("memsvc");
    const store = timeCalls(new InMemoryVectorStore(), "vector_store", metrics);
    const embedder = timeCalls(new FakeEmbedder(), "embedder", metrics);
    await store.bind({ embedderId: embedder.id, dimensions: embedder.dimensions });
    await embedder.embedDocuments(["a"]);
    await expect(store.get(null as unknown as string[])).rejects.toThrow();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /memsvc_dependency_duration_seconds_count\{dependency="vector_store",operation="bind",outcome="ok"\} 1/,
    );
    expect(text).toMatch(
      /memsvc_dependency_duration_seconds_count\{dependency="embedder",operation="embedDocuments",outcome="ok"\} 1/,
    );
    expect(text).toMatch(
      /memsvc_dependency_duration_seconds_count\{dependency="vector_store",operation="get",outcome="error"\} 1/,
    );
  });
});

describe("sqlsvc-mcp observability", () => {
  const toolkit = {
    validate: () => ({ ok: true, result: { valid: true } }),
    parse: () => ({ ok: false, error: "parse failed: line 1, column 1: x" }),
  } as unknown as SqlToolkit;
  const call = (name: string, args: object, headers: Record<string, string> = {}) => ({
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });

  it("logs one line per tool call with tool, outcome, duration and request id, never the SQL", async () => {
    const { logger, lines } = recordingLogger();
    const app = createSqlsvcApp({ toolkit, version: "0", authToken: "", logger });
    const secret = "SELECT password FROM users WHERE name = 'alice'";
    await app.request("/mcp", call("validate_sql", { sql: secret }, { "X-Request-Id": "r-1" }));
    await app.request("/mcp", call("parse_sql", { sql: secret }));
    await app.request("/mcp", call("parse_sql", {}));
    await app.request("/mcp", call("no_such_tool", { sql: secret }));
    expect(lines.map((l) => [l.level, l.msg, l.fields["tool"], l.fields["outcome"]])).toEqual([
      ["info", "tool call", "validate_sql", "ok"],
      ["info", "tool call", "parse_sql", "tool_error"],
      ["info", "tool call", "parse_sql", "invalid_params"],
      ["info", "tool call", "unknown", "invalid_params"],
    ]);
    expect(lines[0]?.fields["request_id"]).toBe("r-1");
    expect(typeof lines[0]?.fields["ms"]).toBe("number");
    expect(JSON.stringify(lines)).not.toContain("alice");
  });

  it("serves tool and request metrics on GET /metrics behind the token", async () => {
    const metrics = createServiceMetrics("sqlsvc");
    const app = createSqlsvcApp({ toolkit, version: "0", authToken: "tok", metrics });
    const auth = { Authorization: "Bearer tok" };
    await app.request("/mcp", call("validate_sql", { sql: "SELECT 1" }, auth));
    expect((await app.request("/metrics")).status).toBe(401);
    const text = await (await app.request("/metrics", { headers: auth })).text();
    expect(text).toContain('sqlsvc_mcp_tool_calls_total{tool="validate_sql",outcome="ok"} 1');
    expect(text).toContain('sqlsvc_http_requests_total{method="POST",route="/mcp",status="200"} 1');
  });
});
