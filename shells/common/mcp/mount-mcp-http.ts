import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { createMcpServerFactory } from "./create-mcp-server.js";
import { jsonRpcErrorResponse } from "./json-rpc-error-response.js";
import {
  checkJsonRpcMessage,
  jsonRpcErrorText,
  type JsonRpcRefusal,
} from "./json-rpc-message-check.js";
import { JSON_RPC } from "./mcp-protocol-error.js";
import { readBody } from "../http/body-reader.js";
import type { McpServerInfo } from "./mcp-tool.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { nestsTooDeep, TOO_DEEP_MESSAGE } from "./json-nesting-limit.js";

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
    // As `Request#text()` decodes: UTF-8, a leading byte order mark dropped.
    const text = new TextDecoder().decode(body);
    if (nestsTooDeep(text))
      return jsonRpcErrorResponse(400, JSON_RPC.INVALID_REQUEST, TOO_DEEP_MESSAGE);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return jsonRpcErrorResponse(400, -32700, "Parse error: Invalid JSON");
    }
    const refused = refusalOf(message);
    if (refused !== undefined) {
      const { status, refusal } = refused;
      if (refusal.id === null) return jsonRpcErrorResponse(status, refusal.code, refusal.message);
      return new Response(jsonRpcErrorText(refusal), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    }
    return viaSdk(request, message);
  });

  app.all(path, () =>
    jsonRpcErrorResponse(405, -32000, `Method not allowed: use POST ${path}`, { Allow: "POST" }),
  );
}

/**
 * Why a parsed body is no JSON-RPC message (or batch of them) the SDK should see, or undefined
 * when it is one. The SDK's transport answered such bodies with -32700 (parse error) although
 * they parsed, an empty batch `[]` with 202 as if it held only notifications (issue 8), an
 * object `id` or a string `params` with -32700 too, and `tools/call` without usable `params` with
 * a dump of its schema errors (issue 26): JSON-RPC says invalid requests are -32600, and a bad
 * `tools/call` gets -32602 naming the field ({@link checkJsonRpcMessage}).
 */
function refusalOf(message: unknown): { status: number; refusal: JsonRpcRefusal } | undefined {
  if (Array.isArray(message)) {
    if (message.length === 0) {
      return {
        status: 400,
        refusal: {
          code: JSON_RPC.INVALID_REQUEST,
          message: "Invalid Request: an empty batch holds no JSON-RPC message",
          id: null,
        },
      };
    }
    for (const item of message) {
      const check = checkJsonRpcMessage(item);
      if (check.kind === "refused" && check.refusal.code === JSON_RPC.INVALID_REQUEST) {
        return { status: 400, refusal: check.refusal };
      }
    }
    return undefined;
  }
  const check = checkJsonRpcMessage(message);
  if (check.kind !== "refused") return undefined;
  // A request with a usable id refused for its params is answered like any call: 200.
  return { status: check.refusal.id === null ? 400 : 200, refusal: check.refusal };
}
