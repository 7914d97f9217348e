/**
 * JSON-RPC error codes used by the MCP shells.
 *
 * @example
 * throw new McpProtocolError(JSON_RPC.INVALID_PARAMS, "parameter 'sql' is required");
 */
export const JSON_RPC = Object.freeze({
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
});

/**
 * A JSON-RPC error raised by a tool call. Unlike the SDK's `McpError`, the message is sent as is
 * (the SDK's prefixes it with `MCP error <code>: `), so clients read exactly
 * `parameter 'sql' is required and must be a non-empty string`. The SDK's request loop only looks
 * at `code` and `message`, so this works on every path.
 *
 * @example
 * throw new McpProtocolError(JSON_RPC.INVALID_PARAMS, "unknown tool 'nope'");
 */
export class McpProtocolError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = "McpProtocolError";
    this.code = code;
  }
}
