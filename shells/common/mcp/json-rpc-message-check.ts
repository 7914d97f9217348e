import { JSON_RPC } from "./mcp-protocol-error.js";

/** A JSON-RPC request id as MCP takes it: a string or an integer. */
export type JsonRpcId = string | number;

/**
 * Why a parsed JSON value is not a message the server takes: the JSON-RPC error to answer with
 * and the id to answer it under (null when the message has none usable).
 *
 * @example
 * const refusal: JsonRpcRefusal = { code: -32600, message: "Invalid Request: …", id: null };
 */
export interface JsonRpcRefusal {
  readonly code: number;
  readonly message: string;
  readonly id: JsonRpcId | null;
}

/**
 * What {@link checkJsonRpcMessage} makes of one message: a request or notification to hand to
 * the SDK, a response (the client answering; our servers send no requests, so nobody waits for
 * one), or a refusal.
 */
export type JsonRpcCheck =
  | { readonly kind: "request" }
  | { readonly kind: "response" }
  | { readonly kind: "refused"; readonly refusal: JsonRpcRefusal };

const REQUEST = { kind: "request" } as const;
const RESPONSE = { kind: "response" } as const;

/**
 * Checks one parsed JSON-RPC message (not a batch) before the MCP SDK sees it, so that every
 * malformed message gets the error JSON-RPC gives it and a sentence naming the field, where the
 * SDK answered some with -32700 (parse error) although they parsed (an object `id`, a string
 * `params`) and `tools/call` without usable `params` with a dump of its schema errors (issue 26):
 *
 * - not an object, `jsonrpc` not `"2.0"`, an `id` that is neither a string nor an integer, a
 *   `method` that is not a string, `params` that is not an object, or neither a method nor a
 *   response: -32600 Invalid Request, under id null (JSON-RPC's rule for an invalid request);
 * - `tools/call` whose `params` is missing, whose `params.name` is not a string or whose
 *   `params.arguments` is not an object: -32602 Invalid params, with the fast lane's sentences.
 *
 * @example
 * checkJsonRpcMessage({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" });
 * // { kind: "refused", refusal: { code: -32600, message: "Invalid Request: 'id' must be a string or an integer", id: null } }
 */
export function checkJsonRpcMessage(message: unknown): JsonRpcCheck {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return invalid("expected a JSON-RPC 2.0 message object");
  }
  const record = message as Record<string, unknown>;
  const rawId = record["id"];
  if ("id" in record && !isJsonRpcId(rawId)) {
    // A response to a request that could not be read carries id null: nothing to answer.
    if (rawId === null && !("method" in record) && "error" in record) return RESPONSE;
    return invalid("'id' must be a string or an integer");
  }
  if (record["jsonrpc"] !== "2.0") return invalid("'jsonrpc' must be \"2.0\"");
  if (!("method" in record)) {
    // A response (a client answering a server request) has an id and a result or an error.
    if ("id" in record && ("result" in record || "error" in record)) return RESPONSE;
    return invalid("expected a 'method' (request or notification) or a response");
  }
  const method = record["method"];
  if (typeof method !== "string") return invalid("'method' must be a string");
  const params = record["params"];
  if ("params" in record && !isPlainObject(params)) return invalid("'params' must be an object");
  if (method === "tools/call" && isJsonRpcId(rawId)) {
    const why = toolCallParamsProblem(params);
    if (why !== undefined) {
      return {
        kind: "refused",
        refusal: { code: JSON_RPC.INVALID_PARAMS, message: why, id: rawId },
      };
    }
  }
  return REQUEST;
}

/**
 * What is wrong with the `params` of a `tools/call`, in the words the fast lane uses, or
 * undefined.
 *
 * @example
 * toolCallParamsProblem(undefined); // "params is required: { name, arguments }"
 */
export function toolCallParamsProblem(params: unknown): string | undefined {
  if (params === undefined) return "params is required: { name, arguments }";
  const record = params as Record<string, unknown>;
  if (typeof record["name"] !== "string") return "params.name must be a string naming a tool";
  const args = record["arguments"];
  if (args !== undefined && !isPlainObject(args)) {
    return "params.arguments must be an object of named parameters";
  }
  return undefined;
}

/**
 * The JSON-RPC error response to a refusal, as one line of text.
 *
 * @example
 * jsonRpcErrorText({ code: -32700, message: "Parse error: Invalid JSON", id: null });
 * // '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: Invalid JSON"}}'
 */
export function jsonRpcErrorText(refusal: JsonRpcRefusal): string {
  const { code, message, id } = refusal;
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
}

/** Whether a value is a usable JSON-RPC id for MCP: a string or a safe integer. */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/** -32600 with id null: JSON-RPC answers an invalid request under no id. */
function invalid(why: string): JsonRpcCheck {
  return {
    kind: "refused",
    refusal: { code: JSON_RPC.INVALID_REQUEST, message: `Invalid Request: ${why}`, id: null },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
