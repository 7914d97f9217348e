import type * as v from "valibot";

/**
 * What a tool handler answers: a result object (sent as `structuredContent` and as JSON text), or
 * a message the model should see as a failed call (`isError: true`). Invalid parameters are not
 * replies: the catalog rejects them before the handler runs (JSON-RPC -32602).
 * The shape matches the core's `ToolOutcome`, so core results pass straight through.
 *
 * @example
 * const ok: ToolReply = { ok: true, result: { valid: true } };
 * const failed: ToolReply = { ok: false, error: "parse failed: line 1, column 8: unexpected FROM" };
 */
export type ToolReply =
  { readonly ok: true; readonly result: object } | { readonly ok: false; readonly error: string };

/**
 * MCP tool annotations (hints for clients; see the MCP `ToolAnnotations` type).
 *
 * @example
 * const forget: McpToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
 */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * Annotations of a tool that only computes from its arguments: no side effects, same answer for
 * the same input, no outside world.
 *
 * @example
 * defineMcpTool({ name: "validate_sql", annotations: READ_ONLY_TOOL, ... });
 */
export const READ_ONLY_TOOL: McpToolAnnotations = Object.freeze({
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * The valibot schema of a tool's arguments: an object schema of named parameters.
 *
 * @example
 * const input: ToolInputSchema = v.object({ sql: v.string() });
 */
export type ToolInputSchema =
  | v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>
  | v.StrictObjectSchema<v.ObjectEntries, v.ErrorMessage<v.StrictObjectIssue> | undefined>;

/**
 * One MCP tool: name, description for the model, a valibot schema of its arguments (also the
 * source of the advertised JSON Schema), annotations, and the handler that receives the parsed
 * arguments. Handlers may be synchronous (SQL tools) or async (memory tools).
 *
 * Throw an `McpProtocolError` from a handler for a protocol error; any other thrown error is a
 * server fault (-32603), except the core's `invalid_input` error, which becomes -32602.
 *
 * @example
 * const echo = defineMcpTool({
 *   name: "echo",
 *   description: "Returns its input.",
 *   input: v.object({ text: v.string("parameter 'text' must be a string") }),
 *   annotations: READ_ONLY_TOOL,
 *   handler: ({ text }) => ({ ok: true, result: { text } }),
 * });
 */
export interface McpTool<S extends ToolInputSchema = ToolInputSchema> {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly input: S;
  /** The result's schema, advertised as `outputSchema` (results go out as `structuredContent`). */
  readonly output?: v.GenericSchema;
  readonly annotations: McpToolAnnotations;
  readonly handler: (args: v.InferOutput<S>) => ToolReply | Promise<ToolReply>;
}

/**
 * Identity function that infers the handler's argument type from the schema, so a list of tools
 * with different schemas can be written without casts.
 *
 * @example
 * const tools: McpTool[] = [defineMcpTool({ name: "a", ... }), defineMcpTool({ name: "b", ... })];
 */
export function defineMcpTool<S extends ToolInputSchema>(tool: McpTool<S>): McpTool {
  return tool as unknown as McpTool;
}

/**
 * The name and version the server reports in `initialize`.
 *
 * @example
 * const info: McpServerInfo = { name: "sqlsvc-mcp", version: "0.1.0" };
 */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  /** Optional instructions for the model, sent in the `initialize` result. */
  readonly instructions?: string;
}
