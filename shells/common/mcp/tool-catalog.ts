import * as v from "valibot";
import { toJsonSchema } from "@valibot/to-json-schema";
import { isAgentServicesError } from "../../../core/errors.js";
import { JSON_RPC, McpProtocolError } from "./mcp-protocol-error.js";
import type { McpTool, McpToolAnnotations, ToolInputSchema, ToolReply } from "./mcp-tool.js";

/**
 * A tool as advertised by `tools/list`.
 *
 * @example
 * catalog.listResult.tools[0]; // { name: "validate_sql", description: "…", inputSchema: {…}, annotations: {…} }
 */
export interface ToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations: McpToolAnnotations;
}

/**
 * The outcome of a call, before it is wrapped in an MCP result: the JSON text of the result object
 * (or the error message) and, on success, the object itself for `structuredContent`.
 *
 * @example
 * const failed: ToolCallOutcome = { isError: true, text: "parse failed: line 1, column 8: …" };
 */
export type ToolCallOutcome =
  | { readonly isError: false; readonly text: string; readonly structured: object }
  | { readonly isError: true; readonly text: string };

/**
 * What {@link createToolCatalog} builds; shared by the HTTP, fast-path and stdio front ends.
 *
 * @example
 * const catalog: ToolCatalog = createToolCatalog(tools);
 * catalog.listResult.tools.length; // number of tools
 */
export interface ToolCatalog {
  /** The `tools/list` result, built once. */
  readonly listResult: { readonly tools: readonly ToolDescriptor[] };
  /** `JSON.stringify(listResult)`, built once for the fast path. */
  readonly listResultJson: string;
  /**
   * Validates the arguments and runs the tool. Throws {@link McpProtocolError} for an unknown
   * tool (-32602), invalid parameters (-32602, unless `invalidArguments: "tool_error"`) or a
   * server fault (-32603). Synchronous when the
   * handler is, so cheap tools pay for no promise.
   */
  call(name: string, args: unknown): ToolCallOutcome | Promise<ToolCallOutcome>;
}

/**
 * Options of {@link createToolCatalog}.
 *
 * @example
 * createToolCatalog(tools, { onServerFault: (error, tool) => logger.error({ error, tool }) });
 */
export interface ToolCatalogOptions {
  /** Told about every server fault (a handler threw something unexpected); default: stderr. */
  readonly onServerFault?: (error: unknown, toolName: string) => void;
  /**
   * How invalid arguments of a known tool are answered: `"protocol_error"` (default), a JSON-RPC
   * -32602 error; `"tool_error"`, a tool result with `isError` and the same text after
   * `invalid_input: `, as MCP 2025-11-25 asks for input validation errors, so that the model
   * sees what to fix (clients need not show it a protocol error). An unknown tool stays -32602.
   */
  readonly invalidArguments?: "protocol_error" | "tool_error";
}

/**
 * Indexes tools by name, turns their valibot schemas into JSON Schemas once, and runs calls with
 * the error split of the MCP shells: bad arguments and unknown tools are JSON-RPC -32602 errors
 * naming the parameter (bad arguments a tool error instead with `invalidArguments: "tool_error"`),
 * a failure the model should see (the handler's `ok: false`, or a coded
 * core error other than `invalid_input`) is a tool result with `isError`, anything else is -32603
 * `internal error in tool '<name>'`, its cause told to `onServerFault` only.
 *
 * @example
 * const catalog = createToolCatalog([validateSqlTool]);
 * const outcome = await catalog.call("validate_sql", { sql: "SELECT 1" });
 * // { isError: false, text: '{"valid":true}', structured: { valid: true } }
 */
export function createToolCatalog(
  tools: readonly McpTool[],
  options: ToolCatalogOptions = {},
): ToolCatalog {
  const byName = new Map<string, McpTool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`duplicate MCP tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const onServerFault = options.onServerFault ?? reportServerFault;
  const invalidAsToolError = options.invalidArguments === "tool_error";
  const listResult = { tools: tools.map(describeTool) };
  const known = tools.map((tool) => tool.name).join(", ");

  function settle(reply: ToolReply): ToolCallOutcome {
    if (!reply.ok) return { isError: true, text: reply.error };
    return { isError: false, text: JSON.stringify(reply.result), structured: reply.result };
  }

  function fail(error: unknown, toolName: string): ToolCallOutcome {
    if (error instanceof McpProtocolError) throw error;
    if (isAgentServicesError(error, "invalid_input") && !invalidAsToolError) {
      throw new McpProtocolError(JSON_RPC.INVALID_PARAMS, error.message);
    }
    // Coded core errors (not found, provider down) are facts the model can act on.
    if (isAgentServicesError(error))
      return { isError: true, text: `${error.code}: ${error.message}` };
    // The cause goes to the fault handler (the log), never to the client: like the REST side's
    // 500 "internal error", a bug's message may carry paths, hostnames or data.
    onServerFault(error, toolName);
    throw new McpProtocolError(JSON_RPC.INTERNAL_ERROR, `internal error in tool '${toolName}'`);
  }

  return {
    listResult,
    listResultJson: JSON.stringify(listResult),
    call(name, args) {
      const tool = byName.get(name);
      if (tool === undefined) {
        throw new McpProtocolError(
          JSON_RPC.INVALID_PARAMS,
          `unknown tool '${name}'; available tools: ${known}`,
        );
      }
      const parsed = v.safeParse(tool.input, args ?? {});
      if (!parsed.success) {
        const message = describeIssue(tool.input, parsed.issues[0]);
        if (invalidAsToolError) return { isError: true, text: `invalid_input: ${message}` };
        throw new McpProtocolError(JSON_RPC.INVALID_PARAMS, message);
      }
      let reply: ToolReply | Promise<ToolReply>;
      try {
        reply = tool.handler(parsed.output);
      } catch (error) {
        return fail(error, name);
      }
      if (reply instanceof Promise) {
        return reply.then(settle, (error: unknown) => fail(error, name));
      }
      return settle(reply);
    },
  };
}

function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _draft, ...rest } = toJsonSchema(schema, { errorMode: "ignore" }) as Record<
    string,
    unknown
  >;
  return rest;
}

function describeTool(tool: McpTool): ToolDescriptor {
  const inputSchema = jsonSchemaOf(tool.input);
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    inputSchema,
    ...(tool.output === undefined ? {} : { outputSchema: jsonSchemaOf(tool.output) }),
    annotations: tool.annotations,
  };
}

/**
 * The message of the first issue, naming the parameter. Tool schemas carry their own messages
 * (`parameter 'sql' is required and must be a non-empty string`); a missing key is reported by
 * the object schema with a generic text, so it gets the message the parameter's own schema gives
 * for `undefined`. Messages that don't name their parameter get a prefix that does.
 */
function describeIssue(schema: ToolInputSchema, issue: v.BaseIssue<unknown> | undefined): string {
  if (issue === undefined) return "invalid arguments";
  const path = issue.path?.map((item) => String(item.key)) ?? [];
  if (path.length === 0)
    return `arguments must be an object of named parameters (${issue.message})`;
  const name = path.join(".");
  let message = issue.message;
  const missing =
    issue.kind === "schema" &&
    (issue.type === "object" || issue.type === "strict_object") &&
    issue.input === undefined;
  if (missing && path.length === 1) {
    const entry = schema.entries[name];
    const own =
      entry === undefined ? undefined : v.safeParse(entry, undefined).issues?.[0]?.message;
    message = own ?? `parameter '${name}' is required`;
  }
  return message.startsWith(`parameter '${name}'`) ? message : `parameter '${name}': ${message}`;
}

function reportServerFault(error: unknown, toolName: string): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`mcp: tool '${toolName}' failed: ${detail}\n`);
}
