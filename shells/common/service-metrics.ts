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
  const requests: Counter = new Counter({
    name: `${prefix}_http_requests_total`,
    help: "HTTP requests answered, by method, route and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect: (): void => requestSeries.publishCounts(),
  });
  const requestSeconds = new PlainHistogram(registry, {
    name: `${prefix}_http_request_duration_seconds`,
    help: "HTTP request latency in seconds, by method, route and status.",
  });
  const toolCalls: Counter = new Counter({
    name: `${prefix}_mcp_tool_calls_total`,
    help: "MCP tool calls, by tool and outcome (ok, tool_error, invalid_params, fault).",
    labelNames: ["tool", "outcome"] as const,
    registers: [registry],
    collect: (): void => toolSeries.publishCounts(),
  });
  const toolSeconds = new PlainHistogram(registry, {
    name: `${prefix}_mcp_tool_duration_seconds`,
    help: "MCP tool call latency in seconds, by tool and outcome.",
  });
  const dependencySeconds = new Histogram({
    name: `${prefix}_dependency_duration_seconds`,
    help: "Latency of vector store and embedder calls in seconds, by operation and outcome.",
    labelNames: ["dependency", "operation", "outcome"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  // The requests and tool calls are counted in plain numbers per label set (see `PlainSeries`)
  // and published when scraped: prom-client's `inc(labels)` and `observe(labels, v)`, even on a
  // `labels()` child, validate and hash the labels on every call (~2 µs of a 1-line sqlsvc call).
  const requestSeries: PlainSeriesTable = new PlainSeriesTable(requests, requestSeconds);
  const toolSeries: PlainSeriesTable = new PlainSeriesTable(toolCalls, toolSeconds);
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
      const series =
        requestSeries.get(key) ?? requestSeries.add(key, { method, route, status: String(status) });
      series.observe(seconds);
    },
    observeToolCall({ tool, outcome, seconds }) {
      const key = `${tool} ${outcome}`;
      (toolSeries.get(key) ?? toolSeries.add(key, { tool, outcome })).observe(seconds);
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

/** One label set's count, latency sum and (non-cumulative) bucket counts, as plain numbers. */
class PlainSeries {
  count = 0;
  /** The part of `count` already added to the prom-client counter. */
  published = 0;
  sum = 0;
  /** Observations per bucket of {@link BUCKETS} (not cumulative); the ones over all are in `count` only. */
  readonly buckets = new Array<number>(BUCKETS.length).fill(0);

  constructor(readonly labels: Readonly<Record<string, string>>) {}

  observe(seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= (BUCKETS[i] as number)) {
        (this.buckets[i] as number)++;
        return;
      }
    }
  }
}

/**
 * The series of one counter and histogram pair, by label set in first-seen order: the counter
 * is a prom-client `Counter` brought up to date when scraped, the histogram a {@link PlainHistogram}
 * reading the series.
 */
class PlainSeriesTable extends Map<string, PlainSeries> {
  constructor(
    private readonly counter: Counter,
    histogram: PlainHistogram,
  ) {
    super();
    histogram.read(this);
  }

  add(key: string, labels: Readonly<Record<string, string>>): PlainSeries {
    const series = new PlainSeries(labels);
    this.set(key, series);
    return series;
  }

  publishCounts(): void {
    for (const series of this.values()) {
      const delta = series.count - series.published;
      if (delta === 0) continue;
      this.counter.inc(series.labels, delta);
      series.published = series.count;
    }
  }
}

/** One value of a metric as prom-client's registry formats it. */
interface MetricValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly metricName?: string;
  readonly sharedLabels?: Readonly<Record<string, string>>;
  readonly exemplar?: null;
}

/** A metric's scrape as prom-client's registry reads it (`get` and `getForPromString`). */
interface MetricData {
  name: string;
  help: string;
  type: string;
  values: MetricValue[];
  aggregator: string;
}

/**
 * A histogram over {@link PlainSeries}, registered in a prom-client registry: its scrape (text
 * and JSON) is what a prom-client `Histogram` with the same name, help, buckets and
 * observations gives, value for value and line for line.
 */
class PlainHistogram {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly name: string;
  readonly help: string;
  #series = new Map<string, PlainSeries>();

  constructor(registry: Registry, config: { readonly name: string; readonly help: string }) {
    this.name = config.name;
    this.help = config.help;
    // The registry asks a metric only for name, get/getForPromString and reset (duck typing).
    registry.registerMetric(this as unknown as Histogram);
  }

  read(series: Map<string, PlainSeries>): void {
    this.#series = series;
  }

  /** As prom-client's `Histogram#getForPromString`: each series' labels shared by its lines. */
  getForPromString(): Promise<MetricData> {
    const bucketName = `${this.name}_bucket`;
    const values: MetricValue[] = [];
    for (const { labels, buckets, count, sum } of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i < BUCKETS.length; i++) {
        cumulative += buckets[i] as number;
        values.push({
          labels: { le: BUCKETS[i] as number },
          sharedLabels: labels,
          value: cumulative,
          metricName: bucketName,
          exemplar: null,
        });
      }
      values.push(
        {
          labels: { le: "+Inf" },
          sharedLabels: labels,
          value: count,
          metricName: bucketName,
          exemplar: null,
        },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
      );
    }
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, values, aggregator });
  }

  /** As prom-client's `Histogram#get`: every value with its series' labels merged in. */
  async get(): Promise<MetricData> {
    const data = await this.getForPromString();
    const values = data.values.map(({ sharedLabels, labels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { ...data, values };
  }

  /** As prom-client's: every series gone (the registry's `resetMetrics` resets the counter too). */
  reset(): void {
    this.#series.clear();
  }
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
