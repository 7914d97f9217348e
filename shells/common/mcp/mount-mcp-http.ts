import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { createMcpServerFactory } from "./create-mcp-server.js";
import { jsonRpcErrorResponse } from "./json-rpc-error-response.js";
import { readBody } from "../http/body-reader.js";
import type { McpServerInfo } from "./mcp-tool.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * Largest request body accepted by default: 1 MiB.
 *
 * @example
 * mountMcpHttp(app, { info, catalog, maxBodyBytes: 4 * DEFAULT_MCP_MAX_BODY_BYTES });
 */
export const DEFAULT_MCP_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Options of {@link mountMcpHttp}.
 *
 * @example
 * const options: McpHttpOptions = { info: { name: "memsvc", version }, catalog, path: "/mcp" };
 */
export interface McpHttpOptions {
  readonly info: McpServerInfo;
  readonly catalog: ToolCatalog;
  /** Route path; default `/mcp`. */
  readonly path?: string;
  /** Request body limit in bytes (413 beyond); default {@link DEFAULT_MCP_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
}

/** What the SDK transport insists on; we accept any Accept header and always answer JSON. */
const SDK_ACCEPT = "application/json, text/event-stream";
/** SDK servers kept between slow-path requests (more may be busy at once; they are dropped). */
const MAX_IDLE_SERVERS = 16;

/**
 * The request as the SDK transport takes it. The transport answers 406 unless `Accept` lists
 * both `application/json` and `text/event-stream`, where this endpoint's contract accepts any
 * Accept header (it always answers JSON): a request that lists both (what SDK clients send) is
 * passed on as it is, any other gets a copy whose Accept lists them.
 */
function sdkAcceptable(request: Request): Request {
  const accept = request.headers.get("accept");
  if (accept?.includes("application/json") && accept.includes("text/event-stream")) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", SDK_ACCEPT);
  return new Request(request.url, { method: "POST", headers });
}

/**
 * Serves the catalog's tools as MCP over streamable HTTP on `POST <path>` of a Hono app, in
 * stateless JSON mode: a bare `tools/call` without `initialize` or session header works, and so
 * does the SDK client's full handshake. `Content-Type: application/json` is required (415), the
 * Accept header is not checked, bodies over the limit get 413, other methods on the path 405.
 * Authentication is the app's business (mount `bearerAuth` from `shells/common/http` before
 * this). Every message goes through the SDK here: the hot ones are answered in front of the app
 * by the fast lane (`mcpLaneRoute`), so a call is answered one of two ways, the lane or the SDK.
 *
 * @example
 * const app = new Hono();
 * mountMcpHttp(app, { info: { name: "memsvc", version }, catalog: createToolCatalog(tools) });
 */
export function mountMcpHttp(app: Hono, options: McpHttpOptions): void {
  const path = options.path ?? "/mcp";
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MCP_MAX_BODY_BYTES;
  const makeServer = createMcpServerFactory(options.info, options.catalog);
  const tooLarge = `Payload Too Large: Request body must not exceed ${maxBytes} bytes`;

  // The SDK's stateless transport serves one request only (it throws when reused), and an SDK
  // server is connected to one transport at a time; a server is free again once closed, so
  // servers are kept for the next requests instead of being built for each one.
  const idleServers: Server[] = [];

  async function viaSdk(request: Request, message: unknown): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    const server = idleServers.pop() ?? makeServer();
    await server.connect(transport);
    try {
      return await transport.handleRequest(sdkAcceptable(request), { parsedBody: message });
    } finally {
      void server.close().then(() => {
        if (idleServers.length < MAX_IDLE_SERVERS) idleServers.push(server);
      });
    }
  }

  app.post(path, async (c) => {
    const request = c.req.raw;
    if (!isJsonContentType(request.headers.get("content-type"))) {
      return jsonRpcErrorResponse(
        415,
        -32000,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    const body = await readBody(c, maxBytes);
    if (body === undefined) return jsonRpcErrorResponse(413, -32000, tooLarge);
    let message: unknown;
    try {
      // As `Request#text()` decodes: UTF-8, a leading byte order mark dropped.
      message = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return jsonRpcErrorResponse(400, -32700, "Parse error: Invalid JSON");
    }
    const invalid = invalidRequest(message);
    if (invalid !== undefined) return jsonRpcErrorResponse(400, -32600, invalid);
    const noParams = toolCallWithoutParams(message);
    if (noParams !== undefined) return noParams;
    return viaSdk(request, message);
  });

  app.all(path, () =>
    jsonRpcErrorResponse(405, -32000, `Method not allowed: use POST ${path}`, { Allow: "POST" }),
  );
}

/**
 * Why a parsed body is no JSON-RPC message (or batch of them), or undefined when it is one. The
 * SDK's transport answered such bodies with -32700 (parse error) although they parsed, and an
 * empty batch `[]` with 202 as if it held only notifications (issue 8); JSON-RPC says both are
 * invalid requests (-32600).
 */
function invalidRequest(message: unknown): string | undefined {
  if (Array.isArray(message)) {
    if (message.length === 0) return "Invalid Request: an empty batch holds no JSON-RPC message";
    for (const item of message) {
      const why = invalidMessage(item);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  return invalidMessage(message);
}

function invalidMessage(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return "Invalid Request: expected a JSON-RPC 2.0 message object";
  }
  const record = message as Record<string, unknown>;
  if (record["jsonrpc"] !== "2.0") return "Invalid Request: 'jsonrpc' must be \"2.0\"";
  if ("method" in record) {
    if (typeof record["method"] !== "string") return "Invalid Request: 'method' must be a string";
    // The SDK answered these with -32700 (parse error) although they parsed (issue 26).
    if ("id" in record && !isRequestId(record["id"])) {
      return "Invalid Request: 'id' must be a string or an integer";
    }
    if ("params" in record && !isObject(record["params"])) {
      return "Invalid Request: 'params' must be an object";
    }
    return undefined;
  }
  // A response (a client answering a server request) has an id and a result or an error.
  if ("id" in record && ("result" in record || "error" in record)) return undefined;
  return "Invalid Request: expected a 'method' (request or notification) or a response";
}

function isRequestId(id: unknown): boolean {
  return typeof id === "string" || Number.isSafeInteger(id);
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The answer to a single `tools/call` request without `params`: -32602 naming what is missing,
 * with the request's id (the SDK answered a dump of its schema's errors, issue 26); undefined
 * for anything else.
 */
function toolCallWithoutParams(message: unknown): Response | undefined {
  if (!isObject(message)) return undefined;
  const record = message as Record<string, unknown>;
  if (record["method"] !== "tools/call" || record["params"] !== undefined || !("id" in record)) {
    return undefined;
  }
  const body = {
    jsonrpc: "2.0",
    id: record["id"],
    error: {
      code: -32602,
      message: "tools/call needs params: {name: <tool name>, arguments: {…}}",
    },
  };
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}
