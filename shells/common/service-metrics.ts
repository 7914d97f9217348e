import type { Handler } from "hono";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Outcome of an MCP tool call, as logged and counted. */
export type ToolCallResult = "ok" | "tool_error" | "invalid_params" | "fault";

/**
 * The Prometheus metrics of one service, in its own registry (prefix `memsvc_` or `sqlsvc_`):
 * HTTP requests by method, route and status (count and latency histogram), MCP tool calls by
 * tool and outcome, timings of the vector store and the embedder by operation, the number of
 * stored memories and of writes waiting in the write journal (read when scraped), and Node's
 * process metrics.
 *
 * @example
 * const metrics = createServiceMetrics("memsvc");
 * metrics.observeRequest({ method: "GET", route: "/healthz", status: 200, seconds: 0.001 });
 * await metrics.registry.metrics(); // Prometheus text format
 */
export interface ServiceMetrics {
  readonly registry: Registry;
  observeRequest(fields: { method: string; route: string; status: number; seconds: number }): void;
  observeToolCall(fields: { tool: string; outcome: ToolCallResult; seconds: number }): void;
  observeDependency(fields: {
    dependency: "vector_store" | "embedder";
    operation: string;
    outcome: "ok" | "error";
    seconds: number;
  }): void;
  /** Where the `<prefix>_memories` gauge reads its value when scraped. */
  countMemoriesWith(read: () => Promise<number>): void;
  /** Where the `<prefix>_journal_pending_ids` gauge reads its value when scraped. */
  countPendingWritesWith(read: () => number): void;
  /**
   * Where the `<prefix>_writes_refused{code}` gauge reads why writes are refused now (1 for that
   * code; none while they are taken).
   */
  countWriteRefusalWith(read: () => string | undefined): void;
}

/** Latency buckets in seconds: 0.5 ms to 10 s. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Builds the metrics of `memsvc` or `sqlsvc` in a fresh registry (see {@link ServiceMetrics}). */
export function createServiceMetrics(prefix: "memsvc" | "sqlsvc"): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: `${prefix}_` });
  const requests = new Counter({
    name: `${prefix}_http_requests_total`,
    help: "HTTP requests answered, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: `${prefix}_http_request_duration_seconds`,
    help: "HTTP request latency in seconds, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: `${prefix}_mcp_tool_calls_total`,
    help: "MCP tool calls, by tool and outcome (ok, tool_error, invalid_params, fault).",
    labelNames: ["tool", "outcome"] as const,
    registers: [registry],
  });
  const toolSeconds = new Histogram({
    name: `${prefix}_mcp_tool_duration_seconds`,
    help: "MCP tool call latency in seconds, by tool and outcome.",
    labelNames: ["tool", "outcome"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const dependencySeconds = new Histogram({
    name: `${prefix}_dependency_duration_seconds`,
    help: "Latency of vector store and embedder calls in seconds, by operation and outcome.",
    labelNames: ["dependency", "operation", "outcome"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  // The labelled series, bound once per label set: `inc(labels)`/`observe(labels, v)` hash the
  // labels on every call, which with the per-request log line was ~20 % of sqlsvc-mcp's CPU on
  // a 1-line call (bench/sql-mcp-pair.ts). Label sets are bounded (routes, statuses, tools).
  type Bound<C, H> = [C, H];
  const requestChildren = new Map<
    string,
    Bound<Counter.Internal, ReturnType<typeof requestSeconds.labels>>
  >();
  const toolChildren = new Map<
    string,
    Bound<Counter.Internal, ReturnType<typeof toolSeconds.labels>>
  >();
  let readMemoryCount: (() => Promise<number>) | undefined;
  new Gauge({
    name: `${prefix}_memories`,
    help: "Memories stored (live and not yet swept), read when scraped.",
    registers: [registry],
    async collect() {
      if (readMemoryCount === undefined) return;
      try {
        this.set(await readMemoryCount());
      } catch {
        // The store is down: leave the gauge out of date rather than fail the whole scrape.
      }
    },
  });
  let readPendingWrites: (() => number) | undefined;
  new Gauge({
    name: `${prefix}_journal_pending_ids`,
    help: "Ids whose writes are acknowledged from the write journal and not yet in the store.",
    registers: [registry],
    collect() {
      if (readPendingWrites !== undefined) this.set(readPendingWrites());
    },
  });
  let readWriteRefusal: (() => string | undefined) | undefined;
  new Gauge({
    name: `${prefix}_writes_refused`,
    help: "1 while writes are refused up front, labelled with why (store_busy, insufficient_storage).",
    labelNames: ["code"],
    registers: [registry],
    collect() {
      this.reset();
      const code = readWriteRefusal?.();
      if (code !== undefined) this.set({ code }, 1);
    },
  });
  return {
    registry,
    observeRequest({ method, route, status, seconds }) {
      const key = `${method} ${route} ${status}`;
      let pair = requestChildren.get(key);
      if (pair === undefined) {
        const labels = { method, route, status: String(status) };
        pair = [requests.labels(labels), requestSeconds.labels(labels)];
        requestChildren.set(key, pair);
      }
      pair[0].inc();
      pair[1].observe(seconds);
    },
    observeToolCall({ tool, outcome, seconds }) {
      const key = `${tool} ${outcome}`;
      let pair = toolChildren.get(key);
      if (pair === undefined) {
        pair = [toolCalls.labels({ tool, outcome }), toolSeconds.labels({ tool, outcome })];
        toolChildren.set(key, pair);
      }
      pair[0].inc();
      pair[1].observe(seconds);
    },
    observeDependency({ dependency, operation, outcome, seconds }) {
      dependencySeconds.observe({ dependency, operation, outcome }, seconds);
    },
    countMemoriesWith(read) {
      readMemoryCount = read;
    },
    countPendingWritesWith(read) {
      readPendingWrites = read;
    },
    countWriteRefusalWith(read) {
      readWriteRefusal = read;
    },
  };
}

/**
 * `GET /metrics`: the registry in Prometheus text format. Mount it behind the service's bearer
 * guard when auth is on.
 *
 * @example
 * app.get("/metrics", metricsHandler(metrics));
 */
export function metricsHandler(metrics: ServiceMetrics): Handler {
  return async (c) =>
    c.body(await metrics.registry.metrics(), 200, {
      "Content-Type": metrics.registry.contentType,
    });
}
