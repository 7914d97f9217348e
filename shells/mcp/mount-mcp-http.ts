import type { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServerFactory } from "./create-mcp-server.js";
import { jsonRpcErrorResponse } from "./json-rpc-error-response.js";
import { tryFastPath } from "./mcp-fast-path.js";
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
  /** Answer `tools/call`, `tools/list` and `ping` without the SDK transport; default true. */
  readonly fastPath?: boolean;
}

const JSON_HEADERS = { "Content-Type": "application/json" };
/** What the SDK transport insists on; we accept any Accept header and always answer JSON. */
const SDK_ACCEPT = "application/json, text/event-stream";

/**
 * Serves the catalog's tools as MCP over streamable HTTP on `POST <path>` of a Hono app, in
 * stateless JSON mode: a bare `tools/call` without `initialize` or session header works, and so
 * does the SDK client's full handshake. `Content-Type: application/json` is required (415), the
 * Accept header is not checked, bodies over the limit get 413, other methods on the path 405.
 * Authentication is the app's business (mount `bearerAuth` before this).
 *
 * @example
 * const app = new Hono();
 * mountMcpHttp(app, { info: { name: "memsvc", version }, catalog: createToolCatalog(tools) });
 */
export function mountMcpHttp(app: Hono, options: McpHttpOptions): void {
  const path = options.path ?? "/mcp";
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MCP_MAX_BODY_BYTES;
  const fastPath = options.fastPath ?? true;
  const { catalog } = options;
  const makeServer = createMcpServerFactory(options.info, catalog);
  const tooLarge = `Payload Too Large: Request body must not exceed ${maxBytes} bytes`;

  async function viaSdk(request: Request, message: unknown): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.set("accept", SDK_ACCEPT);
    const rewritten = new Request(request.url, { method: "POST", headers });
    // Stateless mode (no session id generator) needs a fresh transport, so a fresh server, for
    // every request.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    const server = makeServer();
    await server.connect(transport);
    try {
      return await transport.handleRequest(rewritten, { parsedBody: message });
    } finally {
      void server.close();
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
    const body = await readBody(request, maxBytes);
    if (body === undefined) return jsonRpcErrorResponse(413, -32000, tooLarge);
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return jsonRpcErrorResponse(400, -32700, "Parse error: Invalid JSON");
    }
    if (fastPath && isSupportedVersion(request.headers.get("mcp-protocol-version"))) {
      const answer = tryFastPath(message, catalog);
      if (answer !== undefined) {
        return new Response(typeof answer === "string" ? answer : await answer, {
          status: 200,
          headers: JSON_HEADERS,
        });
      }
    }
    return viaSdk(request, message);
  });

  app.all(path, () =>
    jsonRpcErrorResponse(405, -32000, `Method not allowed: use POST ${path}`, { Allow: "POST" }),
  );
}

/** An absent header is fine; an unsupported one is left for the SDK to refuse (400). */
function isSupportedVersion(version: string | null): boolean {
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * The body as text, or undefined when it exceeds `maxBytes`. A declared length is trusted (Node's
 * parser enforces it) so the common case reads in one go; chunked bodies are counted as they come.
 */
async function readBody(request: Request, maxBytes: number): Promise<string | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > maxBytes) return undefined;
    return request.text();
  }
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
