import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createServiceMetrics } from "../../../../shells/common/service-metrics.js";

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The request and tool-call metrics as prom-client's own counter and histogram keep them. */
function reference(prefix: string) {
  const registry = new Registry();
  const metric = <L extends string>(kind: "counter" | "histogram", name: string, labels: L[]) =>
    kind === "counter"
      ? new Counter({
          name,
          help: HELP[name.slice(prefix.length + 1)] ?? "",
          labelNames: labels,
          registers: [registry],
        })
      : new Histogram({
          name,
          help: HELP[name.slice(prefix.length + 1)] ?? "",
          labelNames: labels,
          buckets: BUCKETS,
          registers: [registry],
        });
  const requests = metric("counter", `${prefix}_http_requests_total`, [
    "method",
    "route",
    "status",
  ]) as Counter;
  const requestSeconds = metric("histogram", `${prefix}_http_request_duration_seconds`, [
    "method",
    "route",
    "status",
  ]) as Histogram;
  const tools = metric("counter", `${prefix}_mcp_tool_calls_total`, ["tool", "outcome"]) as Counter;
  const toolSeconds = metric("histogram", `${prefix}_mcp_tool_duration_seconds`, [
    "tool",
    "outcome",
  ]) as Histogram;
  return { registry, requests, requestSeconds, tools, toolSeconds };
}

const HELP: Record<string, string> = {
  http_requests_total: "HTTP requests answered, by method, route and status.",
  http_request_duration_seconds: "HTTP request latency in seconds, by method, route and status.",
  mcp_tool_calls_total:
    "MCP tool calls, by tool and outcome (ok, tool_error, invalid_params, fault).",
  mcp_tool_duration_seconds: "MCP tool call latency in seconds, by tool and outcome.",
};

/** The scrape's request and tool-call families only (process metrics vary between scrapes). */
function families(text: string): string {
  return text
    .trimEnd()
    .split("\n\n")
    .filter((family) => /_(http_request|mcp_tool)/.test(family))
    .join("\n\n");
}

describe("service metrics counted in plain numbers", () => {
  for (const prefix of ["sqlsvc", "memsvc"] as const) {
    it(`scrape ${prefix}'s requests and tool calls exactly as prom-client's counter and histogram would, across scrapes`, async () => {
      const metrics = createServiceMetrics(prefix);
      const ref = reference(prefix);
      const seconds = [0.0001, 0.0005, 0.0007, 0.003, 0.02, 0.3, 1, 7, 12, 0.1 + 0.2];
      const observe = (i: number) => {
        const s = (seconds[i % seconds.length] as number) * (1 + (i % 7) / 13);
        const request = {
          method: i % 3 ? "POST" : "GET",
          route: i % 5 ? "/mcp" : "/healthz",
          status: i % 11 ? 200 : 404,
        };
        metrics.observeRequest({ ...request, seconds: s });
        const labels = { ...request, status: String(request.status) };
        ref.requests.inc(labels);
        ref.requestSeconds.observe(labels, s);
        const call = {
          tool: ["validate_sql", "parse_sql", "unknown"][i % 3] as string,
          outcome: i % 13 ? ("ok" as const) : ("tool_error" as const),
        };
        metrics.observeToolCall({ ...call, seconds: s / 2 });
        ref.tools.inc(call);
        ref.toolSeconds.observe(call, s / 2);
      };
      for (let i = 0; i < 300; i++) observe(i);
      const first = families(await metrics.registry.metrics());
      expect(first).toContain(
        `${prefix}_mcp_tool_duration_seconds_bucket{le="0.0005",tool="validate_sql",outcome="tool_error"}`,
      );
      expect(first).toBe(families(await ref.registry.metrics()));
      expect(families(await metrics.registry.metrics())).toBe(first);
      for (let i = 300; i < 420; i++) observe(i);
      expect(families(await metrics.registry.metrics())).toBe(
        families(await ref.registry.metrics()),
      );
      const json = (await metrics.registry.getMetricsAsJSON()).filter((m) =>
        /_(http_request|mcp_tool)/.test(m.name),
      );
      expect(json).toEqual(await ref.registry.getMetricsAsJSON());
    });
  }
});
