import { createServer, type RequestListener, type Server } from "node:http";
import { Hono } from "hono";
import type { SqlToolkit } from "../../core/sql/results.js";
import { bearerAuthConcern } from "../common/http/bearer-auth.js";
import { Edge } from "../common/http/edge.js";
import { originCheckConcern, type OriginPolicy } from "../common/http/origin-check.js";
import { createFastLane } from "../common/http/fast-lane.js";
import { toNodeListener } from "../common/http/framework-internals.js";
import { jsonRpcErrorResponse } from "../common/mcp/json-rpc-error-response.js";
import { mcpLaneRoute } from "../common/mcp/mcp-lane-route.js";
import type { McpServerInfo } from "../common/mcp/mcp-tool.js";
import { DEFAULT_MCP_MAX_BODY_BYTES, mountMcpHttp } from "../common/mcp/mount-mcp-http.js";
import { createToolCatalog, type ToolCatalog } from "../common/mcp/tool-catalog.js";
import type { SqlToolRunner } from "./sql-tool-call.js";
import { observeToolCalls } from "../common/mcp/observe-tool-calls.js";
import { SILENT_LOGGER, type Logger } from "../common/logger.js";
import { currentRequestId, requestIdConcern } from "../common/http/request-id.js";
import { requestLogConcern } from "../common/http/request-log.js";
import { metricsHandler, type ServiceMetrics } from "../common/service-metrics.js";
import { createSqlTools } from "./sql-tools.js";
import { toolCallLine } from "./tool-call-line.js";
import { attachMcpFrontEnd } from "./http-front/mcp-front-end.js";

/**
 * Options of {@link createSqlsvcApp}.
 *
 * @example
 * const options: SqlsvcAppOptions = { toolkit, version: "0.1.0", authToken: "" };
 */
export interface SqlsvcAppOptions {
  readonly toolkit: SqlToolkit;
  /** The package version, reported as `serverInfo.version`. */
  readonly version: string;
  /** Bearer token every request must carry; empty turns auth off. */
  readonly authToken: string;
  /** Runs the tool calls (default: in-process on `toolkit`); see `BudgetedSqlRunner`. */
  readonly runner?: SqlToolRunner;
  /** Answer `tools/call`, `tools/list`, `ping` in the fast lane (default true; tests turn it off). */
  readonly fastPath?: boolean;
  /** One `tool call` line per call (tool, outcome, ms, request id; never the SQL). Default silent. */
  readonly logger?: Logger;
  /**
   * Where the `tool call` lines go as JSON text instead of `logger` (the same bytes as
   * `createJsonLogger`'s, built without a log object: the server writes one per call).
   */
  readonly toolCallLog?: (line: string) => void;
  /** Prometheus metrics: requests and tool calls, served on `GET /metrics` (behind the token). */
  readonly metrics?: ServiceMetrics;
  /**
   * Which `Host` and `Origin` headers are served (421/403 otherwise; see `OriginPolicy`). The
   * server always sets one; without it every Host and Origin is served.
   */
  readonly origins?: OriginPolicy;
}

/**
 * The name `sqlsvc-mcp` reports in `initialize`, with the package version.
 *
 * @example
 * sqlsvcServerInfo("0.1.0"); // { name: "sqlsvc-mcp", version: "0.1.0", instructions: "…" }
 */
export function sqlsvcServerInfo(version: string): McpServerInfo {
  return {
    name: "sqlsvc-mcp",
    version,
    instructions:
      "SQL expertise tools. Use validate_sql to check syntax (optionally per dialect), format_sql " +
      "to tidy SQL, security_scan before running SQL built from user input, lint_sql for style, " +
      "extract_metadata to see which tables and columns a query touches, and analyze_sql for all " +
      "of it at once. Nothing is executed against a database. " +
      "parse_sql counts the statements and names their kinds; fix_sql applies the lint fixes " +
      "that cannot change meaning and returns the fixed text. Pass `dialect` when you know the " +
      "database: validation then rejects syntax that only other dialects accept.",
  };
}

/** The 401 body: a JSON-RPC error, like every other refusal of this app. */
const UNAUTHORIZED = {
  jsonrpc: "2.0",
  error: { code: -32001, message: "Unauthorized: send Authorization: Bearer <token>" },
  id: null,
};

/**
 * The HTTP application of `sqlsvc-mcp`: MCP on `POST /mcp` (405 for other methods there),
 * `GET /healthz` (liveness) and `GET /readyz` (the parsers answer), JSON 404 elsewhere, and, when a token is set, bearer auth in front of everything (every path and
 * method). Pure wiring: the tools come from {@link createSqlTools}, the MCP plumbing from
 * `shells/common/mcp`.
 *
 * @example
 * const app = createSqlsvcApp({ toolkit, version: "0.1.0", authToken: "" });
 * const res = await app.request("/mcp", { method: "POST", headers: { "Content-Type": "application/json" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call",
 *     params: { name: "validate_sql", arguments: { sql: "SELECT 1" } } }) });
 */
export function createSqlsvcApp(options: SqlsvcAppOptions): Hono {
  return buildSqlsvcApp(options).app;
}

/**
 * The same application as a Node request listener (what the server runs): the fast lane
 * (`createFastLane`, with the MCP route `mcpLaneRoute`) answers plain `tools/call`, `tools/list`
 * and `ping` requests in front of Hono, applying the app's own edge concerns (request id, request
 * metrics, auth), and the Hono app of {@link createSqlsvcApp} answers everything else, with the
 * same tool catalog.
 *
 * @example
 * const server = createServer(createSqlsvcListener({ toolkit, version: "0.1.0", authToken: "" }));
 */
export function createSqlsvcListener(options: SqlsvcAppOptions): RequestListener {
  return listenerOf(options, buildSqlsvcApp(options));
}

/**
 * The `node:http` server the service runs: {@link createSqlsvcListener}'s listener, and in front
 * of it (unless `fastPath` is false) the lean `node:net` front end of `attachMcpFrontEnd`, which
 * answers plain keep-alive `tools/call`, `tools/list` and `ping` POSTs itself and hands every
 * other connection to the server unchanged. Not listening yet.
 *
 * @example
 * const server = createSqlsvcServer({ toolkit, version: "0.1.0", authToken: "" });
 * server.listen(8080, "127.0.0.1");
 */
export function createSqlsvcServer(options: SqlsvcAppOptions): Server {
  const parts = buildSqlsvcApp(options);
  const server = createServer(listenerOf(options, parts));
  if (options.fastPath !== false) {
    attachMcpFrontEnd(server, {
      edge: parts.edge,
      route: mcpLaneRoute(parts.catalog),
      maxBodyBytes: DEFAULT_MCP_MAX_BODY_BYTES,
    });
  }
  return server;
}

function listenerOf(options: SqlsvcAppOptions, parts: SqlsvcParts): RequestListener {
  const { app, catalog, edge } = parts;
  const fallback = toNodeListener(app.fetch, (_status, message) => ({
    jsonrpc: "2.0",
    error: { code: -32000, message },
    id: null,
  }));
  if (options.fastPath === false) return fallback;
  return createFastLane(
    {
      edge,
      routes: new Map([["/mcp", mcpLaneRoute(catalog)]]),
      maxBodyBytes: DEFAULT_MCP_MAX_BODY_BYTES,
    },
    fallback,
  );
}

interface SqlsvcParts {
  readonly app: Hono;
  readonly catalog: ToolCatalog;
  readonly edge: Edge;
}

function buildSqlsvcApp(options: SqlsvcAppOptions): SqlsvcParts {
  const app = new Hono();
  const logger = options.logger ?? SILENT_LOGGER;
  const { metrics, toolCallLog } = options;
  const edge = new Edge([
    requestIdConcern({ scoped: true }),
    // Metrics only: the log has one line per tool call instead of one per request.
    metrics === undefined ? undefined : requestLogConcern(undefined, metrics),
    options.origins === undefined
      ? undefined
      : originCheckConcern(options.origins, (_status, message) => ({
          jsonrpc: "2.0",
          error: { code: -32000, message },
          id: null,
        })),
    options.authToken === ""
      ? undefined
      : bearerAuthConcern({ token: options.authToken, body: () => UNAUTHORIZED }),
  ]);
  edge.mount(app, "request-id", "request-log", "origin-check", "bearer-auth");
  if (metrics !== undefined) app.get("/metrics", metricsHandler(metrics));
  // Liveness and readiness as memsvc has them (behind the token when one is set, like every
  // path of this server). Ready means the parsers answer: a one-token validation, in-process.
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", (c) => {
    try {
      if (options.toolkit.validate("SELECT 1").result.valid) return c.json({ status: "ready" });
    } catch (error) {
      logger.warn("not ready", { cause: error instanceof Error ? error.message : String(error) });
    }
    return c.json({ error: "SQL parser unavailable" }, 503);
  });
  const catalog = observeToolCalls(
    createToolCatalog(createSqlTools(options.toolkit, options.runner)),
    (call) => {
      // Named fields, not `...call`: spreading into a fresh literal cost ~2 µs a call, measured.
      const { tool, outcome, ms } = call;
      if (toolCallLog !== undefined)
        toolCallLog(toolCallLine(call, currentRequestId(), Date.now()));
      else logger.info("tool call", { tool, outcome, ms, request_id: currentRequestId() });
      metrics?.observeToolCall({ tool: call.tool, outcome: call.outcome, seconds: call.ms / 1000 });
    },
  );
  mountMcpHttp(app, { info: sqlsvcServerInfo(options.version), catalog });
  app.notFound((c) =>
    jsonRpcErrorResponse(
      404,
      -32000,
      `Not Found: ${c.req.method} ${c.req.path}; the MCP endpoint is POST /mcp`,
    ),
  );
  app.onError((error) => {
    if (isClientAbort(error)) {
      // The client went away mid-request: nothing failed here, and no one reads the answer.
      logger.info("request aborted by the client", {
        reason: error.message,
        request_id: currentRequestId(),
      });
      return jsonRpcErrorResponse(400, -32000, "Bad Request: the request was cut off");
    }
    logger.error("request failed", {
      cause: error instanceof Error ? (error.stack ?? error.message) : String(error),
      request_id: currentRequestId(),
    });
    return jsonRpcErrorResponse(500, -32603, "Internal error");
  });
  return { app, catalog, edge };
}

/**
 * True for the errors of a request the client abandoned (Node's `aborted` when the socket
 * closes mid-body, a reset, an abort signal): logged at info without a stack, as no fault of
 * the server (issue 26: 66 of them in a fuzz run were logged as errors with stacks).
 */
function isClientAbort(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    error.message === "aborted" ||
    error.name === "AbortError" ||
    code === "ECONNRESET" ||
    code === "ERR_STREAM_PREMATURE_CLOSE"
  );
}
