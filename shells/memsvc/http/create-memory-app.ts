import { Hono, type Context } from "hono";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { mountMemoryBrowser, type MemoryBrowserOptions } from "./mount-memory-browser.js";
import { describeCause, toErrorJson } from "./error-response.js";
import { SILENT_LOGGER, withFields, type Logger } from "../../common/logger.js";
import { mountMemoryNdjsonRoutes, type ImportRequestLimits } from "./memory-ndjson-routes.js";
import { mountMemoryOperations } from "./memory-operation-routes.js";
import { mountTenantRoutes, type TenantDirectory } from "./tenant-routes.js";
import { loadMemoryToolCatalog } from "../mcp/memory-tool-catalog.js";
import { memsvcServerInfo } from "../mcp/memsvc-server-info.js";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi-document.js";
import { jsonObjectBody, MAX_BODY_BYTES } from "./json-object-body.js";
import { ROUTE_DOCS as doc } from "./memory-route-docs.js";
import { requestIdOf } from "../../common/http/request-id.js";
import { memoryOfOption, type MemoryOf } from "./memory-of.js";
import { principalOf } from "./principal.js";
import { memoryEdge, type RequestRateLimit } from "./memory-edge.js";
import type { OriginPolicy } from "../../common/http/origin-check.js";
import { metricsHandler, type ServiceMetrics } from "../../common/service-metrics.js";
import type { ApiKeys } from "../auth/api-keys.js";
import { mountKeyRoutes, operatorOnly } from "./key-routes.js";

/** What the MCP sub-app gets as `c.env`: the id of the request it answers. */
interface McpEnv {
  readonly requestId: string | undefined;
}

/** Resolves when the service can serve; rejects (its message is sent) when it cannot. */
export type ReadinessCheck = () => Promise<void>;

/** What {@link createMemoryApp} needs: built services, never the container. */
export interface MemoryAppOptions {
  /**
   * The memory the requests act on: one for every caller, or, given a {@link MemoryOf}, the one
   * of each request's principal (what the `caller-auth` edge decided: `memsvc` serve passes its
   * tenant views, `TenantMemoryApi.as`).
   */
  readonly memory: MemoryApi | MemoryOf;
  /** Reported in `/openapi.json` and the MCP `initialize` answer. */
  readonly version: string;
  /**
   * The operator's token: when set, every route but `GET /healthz` needs `Authorization: Bearer`
   * with it or with a tenant's API key (see `keys`).
   */
  readonly authToken?: string | undefined;
  /** The tenants' API keys (issue 23); without them only the operator token authenticates. */
  readonly keys?: ApiKeys | undefined;
  /** Requests per second and burst per API key (and for the operator); default unlimited. */
  readonly rateLimit?: RequestRateLimit | undefined;
  /** Backs `GET /readyz` (default: always ready). */
  readonly readiness?: ReadinessCheck;
  /** Request lines and error causes (default: silent). */
  readonly logger?: Logger;
  /** Prometheus metrics: counted per request and served on `GET /metrics` (behind the token). */
  readonly metrics?: ServiceMetrics;
  /**
   * Which `Host` and `Origin` headers are served (421/403 otherwise; see `OriginPolicy`).
   * `memsvc serve` always sets one; without it every Host and Origin is served.
   */
  readonly origins?: OriginPolicy | undefined;
  /** Limits of one `POST /v1/import` (default: `MAX_IMPORT_LINES`, `_BYTES`, `_MS`). */
  readonly importLimits?: ImportRequestLimits | undefined;
  /** Request body limit in bytes (default 1,048,576). */
  readonly maxBodyBytes?: number;
  /** The memory browser's path and files; without it there is no web page. */
  readonly ui?: MemoryBrowserOptions | undefined;
  /** Every tenant's counts, for `GET /v1/tenants` (issue 23); without it there is no such route. */
  readonly tenants?: TenantDirectory | undefined;
}

/**
 * The memory REST API (and its MCP tools at `POST /mcp`) as a Hono app. Middleware order is the
 * contract: request log, then the caller check (before routing, so a request without a valid token
 * learns nothing, not even 404/405), then the 405 check, then the routes. Every error body is
 * `{error}`; error statuses are decided in one place (`toErrorAnswer`). `createMemoryListener` serves it with
 * a fast path in front for the hot JSON routes.
 *
 * @example
 * const app = createMemoryApp({ memory: service, version: "0.1.0", authToken: "s3cret" });
 * const res = await app.request("/v1/stats", { headers: { Authorization: "Bearer s3cret" } });
 */
export function createMemoryApp(options: MemoryAppOptions): Hono {
  const memoryOf = memoryOfOption(options.memory);
  const logger = options.logger ?? SILENT_LOGGER;
  const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const readiness = options.readiness ?? (() => Promise.resolve());
  let openapi: Promise<OpenApiDocument> | undefined;
  const app = new Hono();
  const answerError = (error: Error, c: Context, id: string | undefined) => {
    const answer = toErrorJson(error, withFields(logger, { request_id: id }));
    return c.body(answer.text, answer.status, answer.headers);
  };
  const onError = (error: Error, c: Context) => answerError(error, c, requestIdOf(c));

  // The edge concerns (memory-edge.ts), mounted around the routes; the fast lane applies the same.
  const edge = memoryEdge(app, {
    logger,
    metrics: options.metrics,
    authToken: options.authToken,
    keys: options.keys,
    rateLimit: options.rateLimit,
    origins: options.origins,
  });
  // The origin check before the page too: a rebound name must not even load it.
  edge.mount(app, "request-id", "request-log", "origin-check");
  // Before the guard: a page load cannot carry a token. The page's API calls do, and meet it.
  if (options.ui !== undefined) mountMemoryBrowser(app, options.ui);
  edge.mount(app, "caller-auth", "rate-limit");
  if (options.metrics !== undefined) {
    app.get("/metrics", doc.getMetrics, operatorOnly("metrics"), metricsHandler(options.metrics));
  }
  edge.mount(app, "method-not-allowed");

  app.get("/healthz", doc.getHealth, (c) => c.json({ status: "ok" }));
  app.get("/readyz", doc.getReadiness, async (c) => {
    try {
      await readiness();
      return c.json({ status: "ready" });
    } catch (error) {
      logger.warn("not ready", { cause: describeCause(error) });
      return c.json({ error: error instanceof Error ? error.message : "not ready" }, 503);
    }
  });
  app.get("/openapi.json", doc.getOpenApi, async (c) =>
    c.json(await (openapi ??= buildOpenApiDocument(app, options.version))),
  );

  // Every use case's route, from the operation table (operations/memory-operations.ts); the fast
  // path (see createMemoryListener) answers the hot ones in front of this app with the same calls.
  mountMemoryOperations(app, memoryOf, jsonObjectBody(maxBytes));
  mountMemoryNdjsonRoutes(app, memoryOf, options.importLimits);
  if (options.tenants !== undefined) mountTenantRoutes(app, options.tenants);
  mountKeyRoutes(app, {
    keys: options.keys,
    authEnabled: options.authToken !== undefined && options.authToken !== "",
  });

  // The MCP SDK and its JSON Schema validator cost ~25 MB of RSS: load them on the first /mcp
  // request, not at startup, so a service that is only used over REST does not pay for them.
  // One MCP app per principal's memory (its tools act on it).
  const mcpApps = new WeakMap<MemoryApi, Promise<Hono>>();
  const loadMcpApp = async (memory: MemoryApi): Promise<Hono> => {
    const [catalog, { mountMcpHttp }] = await Promise.all([
      loadMemoryToolCatalog(memory, logger),
      import("../../common/mcp/mount-mcp-http.js"),
    ]);
    const sub = new Hono();
    mountMcpHttp(sub, {
      info: memsvcServerInfo(options.version),
      catalog,
      maxBodyBytes: maxBytes,
    });
    // The sub-app has a context of its own: the request's id comes in its env (see `mcp`).
    sub.onError((error, c) => answerError(error, c, (c.env as McpEnv | undefined)?.requestId));
    return sub;
  };
  const mcp = async (c: Context) => {
    const memory = memoryOf(principalOf(c));
    let mcpApp = mcpApps.get(memory);
    if (mcpApp === undefined) {
      mcpApp = loadMcpApp(memory).catch((error: unknown) => {
        mcpApps.delete(memory);
        throw error;
      });
      mcpApps.set(memory, mcpApp);
    }
    const env: McpEnv = { requestId: requestIdOf(c) };
    return (await mcpApp).fetch(c.req.raw, env);
  };
  // POST is the protocol (and the documented operation); other methods get the SDK's answer.
  app.post("/mcp", doc.mcp, mcp);
  app.all("/mcp", mcp);

  app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));
  app.onError(onError);
  return app;
}
