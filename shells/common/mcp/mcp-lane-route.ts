import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { IncomingHttpHeaders } from "node:http";
import type { LaneRoute } from "../http/fast-lane.js";
import { readFlatRequest } from "./json-rpc-envelope.js";
import { JSON_RPC, McpProtocolError } from "./mcp-protocol-error.js";
import type { ToolCallOutcome, ToolCatalog } from "./tool-catalog.js";
import { nestsTooDeep } from "./json-nesting-limit.js";

/**
 * The MCP endpoint as a route of the fast lane (`createFastLane`): it admits a request with a
 * JSON content type and a supported protocol version (or none), as the SDK transport would, and
 * answers the hot messages ({@link tryFastPath}) from the catalog with the bytes the SDK path
 * sends; anything else (initialize, notifications, batches, malformed JSON) goes to the app and
 * its SDK transport. The lane and the SDK are the only two ways a call is answered.
 *
 * This module imports the SDK's content-type check and version list: memsvc loads it with its
 * tools on the first `/mcp` request, never at startup.
 *
 * @example
 * const routes = new Map([["/mcp", mcpLaneRoute(catalog)]]);
 */
export function mcpLaneRoute(catalog: ToolCatalog): LaneRoute {
  return { admits: admitsMcp, answer: (body) => answerBody(body, catalog) };
}

/**
 * Whether {@link mcpLaneRoute} admits a request by its headers: a JSON content type and a
 * supported protocol version (or none), as the SDK transport would.
 *
 * @example
 * admitsMcp({ "content-type": "application/json" }); // true
 */
export function admitsMcp(headers: IncomingHttpHeaders): boolean {
  return (
    isJsonContentType(headers["content-type"]) &&
    // Node joins repeated headers other than Set-Cookie into one string, as fetch's Headers do.
    isSupportedVersion(headers["mcp-protocol-version"] as string | undefined)
  );
}

/** The fast answer to a body, or undefined when it is not JSON or not a message we answer. */
function answerBody(body: Buffer, catalog: ToolCatalog): string | Promise<string> | undefined {
  const text = body.toString();
  // The usual compact call is read without JSON.parse (same value; any other text is parsed).
  let message: unknown = readFlatRequest(text);
  if (message === undefined) {
    // Too deep for any tool: the SDK's route refuses it without parsing it (mount-mcp-http).
    if (nestsTooDeep(text)) return undefined;
    try {
      message = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return tryFastPath(message, catalog);
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
 * and writing byte for byte the body the SDK path would send (the lane's half of
 * {@link mcpLaneRoute}). Returns undefined for anything it
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
