import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { requestIdFor, runWithRequestId } from "../request-id.js";
import { JSON_RPC, McpProtocolError } from "./mcp-protocol-error.js";
import type { ToolCallOutcome, ToolCatalog } from "./tool-catalog.js";

/**
 * Options of {@link withMcpFastPath}.
 *
 * @example
 * const options: McpFastPathOptions = { catalog, path: "/mcp", maxBodyBytes: 1024 * 1024 };
 */
export interface McpFastPathOptions {
  readonly catalog: ToolCatalog;
  /** The MCP route; default `/mcp`. */
  readonly path?: string;
  /** Bodies declared larger than this take the fallback (which answers 413). */
  readonly maxBodyBytes: number;
  /** Whether the `Authorization` header lets the request in; default: no auth. */
  readonly authorized?: (header: string | undefined) => boolean;
  /** Told about every request the fast path answered (for the request metrics). */
  readonly onAnswered?: (seconds: number) => void;
}

/**
 * A Node request listener answering the hot MCP requests ({@link tryFastPath}) on `POST <path>`
 * without Hono or Web `Request`/`Response` objects, with everything else left to `fallback` (the
 * service's Hono app). It answers only what it can answer exactly as the app would: an
 * authorised POST with a JSON content type, a declared body within the limit, a supported
 * protocol version (or none) and a message {@link tryFastPath} recognises. The request gets its
 * id (`X-Request-Id`, readable with `currentRequestId()` during the call, as under the app's
 * middleware) and the answer goes out in one `end()`. Anything else, refusals included, reaches
 * the fallback, with the body already read handed over as `rawBody` (which `@hono/node-server`
 * reads instead of the stream), so there is one implementation of every refusal.
 *
 * @example
 * const server = createServer(withMcpFastPath({ catalog, maxBodyBytes }, getRequestListener(app.fetch)));
 */
export function withMcpFastPath(
  options: McpFastPathOptions,
  fallback: RequestListener,
): RequestListener {
  const path = options.path ?? "/mcp";
  const { catalog, maxBodyBytes, authorized, onAnswered } = options;
  return (req, res) => {
    const headers = req.headers;
    const declared = headers["content-length"];
    if (
      req.method !== "POST" ||
      req.url !== path ||
      declared === undefined ||
      !(Number(declared) <= maxBodyBytes) ||
      !isJsonContentType(headers["content-type"]) ||
      (authorized !== undefined && !authorized(headers.authorization)) ||
      // Node joins repeated headers other than Set-Cookie into one string, as fetch's Headers do.
      !isSupportedVersion(headers["mcp-protocol-version"] as string | undefined)
    ) {
      fallback(req, res);
      return;
    }
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A client that goes away mid-body: nothing to answer.
    req.on("error", () => undefined);
    req.on("end", () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const id = requestIdFor(headers["x-request-id"] as string | undefined);
      const answer = runWithRequestId(id, () => answerBody(body, catalog));
      if (answer === undefined) {
        (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
        fallback(req, res);
        return;
      }
      const send = (text: string): void => {
        sendJson(res, id, text);
        onAnswered?.((performance.now() - started) / 1000);
      };
      if (typeof answer === "string") send(answer);
      else void answer.then(send);
    });
  };
}

/** The fast answer to a body, or undefined when it is not JSON or not a message we answer. */
function answerBody(body: Buffer, catalog: ToolCatalog): string | Promise<string> | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  return tryFastPath(message, catalog);
}

/** 200 with the JSON text, in one write of headers and body. */
function sendJson(res: ServerResponse, id: string, text: string): void {
  res.writeHead(200, [
    "X-Request-Id",
    id,
    "Content-Type",
    "application/json",
    "Content-Length",
    String(Buffer.byteLength(text)),
  ]);
  res.end(text);
}

/**
 * Whether the `Mcp-Protocol-Version` header allows the fast path: absent, or a version the SDK
 * supports (an unsupported one is left to the SDK, which refuses it with 400).
 *
 * @example
 * isSupportedVersion(undefined);    // true
 * isSupportedVersion("1999-01-01"); // false
 */
export function isSupportedVersion(version: string | null | undefined): boolean {
  return version == null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

type RequestId = string | number;

/**
 * Answers the hot JSON-RPC requests (`tools/call`, `tools/list`, `ping`) without the SDK's
 * per-request transport and server (~0.9 ms each), calling the same catalog the SDK handlers call
 * and writing byte for byte the body the SDK path would send. Returns undefined for anything it
 * does not recognise exactly (batches, notifications, `initialize`, `_meta`, odd ids or params),
 * which then takes the SDK path, so the fast path never has to reproduce the SDK's error texts.
 * One deliberate difference: a `tools/call` whose `name` is not a string or whose `arguments` is
 * not an object gets -32602 naming the field, where the SDK answers -32603 with a schema dump.
 *
 * @example
 * const body = tryFastPath({ jsonrpc: "2.0", id: 1, method: "ping" }, catalog);
 * // '{"result":{},"jsonrpc":"2.0","id":1}'
 */
export function tryFastPath(
  message: unknown,
  catalog: ToolCatalog,
): string | Promise<string> | undefined {
  if (!isPlainObject(message) || message["jsonrpc"] !== "2.0") return undefined;
  const id = message["id"];
  if (!isRequestId(id)) return undefined;
  for (const key in message) {
    if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return undefined;
  }
  const method = message["method"];
  const params = message["params"];
  if (method === "tools/call") return fastToolCall(id, params, catalog);
  if (params !== undefined) return undefined;
  if (method === "tools/list") return resultBody(id, catalog.listResultJson);
  if (method === "ping") return resultBody(id, "{}");
  return undefined;
}

function fastToolCall(
  id: RequestId,
  params: unknown,
  catalog: ToolCatalog,
): string | Promise<string> | undefined {
  if (!isPlainObject(params)) return undefined;
  for (const key in params) {
    if (key !== "name" && key !== "arguments") return undefined;
  }
  const name = params["name"];
  const args = params["arguments"];
  // The SDK answers these with -32603 and a dump of its schema errors; a wrong parameter type is
  // -32602 with a sentence naming it, as for the tools' own parameters.
  if (typeof name !== "string") {
    return errorBody(
      id,
      new McpProtocolError(JSON_RPC.INVALID_PARAMS, "params.name must be a string naming a tool"),
    );
  }
  if (args !== undefined && !isPlainObject(args)) {
    return errorBody(
      id,
      new McpProtocolError(
        JSON_RPC.INVALID_PARAMS,
        "params.arguments must be an object of named parameters",
      ),
    );
  }
  let outcome: ToolCallOutcome | Promise<ToolCallOutcome>;
  try {
    outcome = catalog.call(name, args);
  } catch (error) {
    return errorBody(id, error);
  }
  if (outcome instanceof Promise) {
    return outcome.then(
      (settled) => callResultBody(id, settled),
      (error: unknown) => errorBody(id, error),
    );
  }
  return callResultBody(id, outcome);
}

/** Same bytes as `JSON.stringify({ result: toCallToolResult(outcome), jsonrpc, id })`. */
function callResultBody(id: RequestId, outcome: ToolCallOutcome): string {
  const content = `{"content":[{"type":"text","text":${JSON.stringify(outcome.text)}}]`;
  // `text` is JSON.stringify(structured): reuse it rather than serialising the result twice.
  const result = outcome.isError
    ? `${content},"isError":true}`
    : `${content},"structuredContent":${outcome.text}}`;
  return resultBody(id, result);
}

function resultBody(id: RequestId, resultJson: string): string {
  return `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

/** Mirrors the SDK's request loop: `code` if it is a safe integer, else -32603. */
function errorBody(id: RequestId, error: unknown): string {
  const code =
    error instanceof McpProtocolError ||
    Number.isSafeInteger((error as { code?: unknown } | null)?.code)
      ? (error as { code: number }).code
      : -32603;
  const message = (error as { message?: unknown } | null)?.message ?? "Internal error";
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isSafeInteger(value);
}
