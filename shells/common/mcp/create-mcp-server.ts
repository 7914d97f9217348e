import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { McpServerInfo } from "./mcp-tool.js";
import type { ToolCallOutcome, ToolCatalog } from "./tool-catalog.js";

/**
 * The MCP result of a call: the result object twice, as `structuredContent` and as one text item
 * holding the same JSON (clients that ignore structured output still read it), or the error
 * message as text with `isError`. Key order matters: the fast path writes the same bytes.
 *
 * @example
 * toCallToolResult({ isError: true, text: "parse failed: line 1, column 8: …" });
 * // { content: [{ type: "text", text: "parse failed: …" }], isError: true }
 */
export function toCallToolResult(outcome: ToolCallOutcome): CallToolResult {
  const content = [{ type: "text" as const, text: outcome.text }];
  if (outcome.isError) return { content, isError: true };
  return { content, structuredContent: outcome.structured as Record<string, unknown> };
}

/**
 * A factory of SDK `Server`s answering `tools/list` and `tools/call` from one catalog. The
 * low-level `Server` is used because `McpServer.registerTool` only takes zod schemas; the
 * handlers and the (costly to build) JSON Schema validator are shared by every server made, so a
 * server per HTTP request (which the SDK's stateless transport needs) stays cheap.
 *
 * @example
 * const makeServer = createMcpServerFactory({ name: "sqlsvc-mcp", version: "0.1.0" }, catalog);
 * await makeServer().connect(new StdioServerTransport());
 */
export function createMcpServerFactory(info: McpServerInfo, catalog: ToolCatalog): () => Server {
  const validator = new AjvJsonSchemaValidator();
  const listTools = (): ListToolsResult => catalog.listResult as unknown as ListToolsResult;
  const callTool = async (request: CallToolRequest): Promise<CallToolResult> =>
    toCallToolResult(await catalog.call(request.params.name, request.params.arguments));
  const serverInfo = { name: info.name, version: info.version };
  return () => {
    const server = new Server(serverInfo, {
      capabilities: { tools: {} },
      jsonSchemaValidator: validator,
      ...(info.instructions === undefined ? {} : { instructions: info.instructions }),
    });
    server.setRequestHandler(ListToolsRequestSchema, listTools);
    server.setRequestHandler(CallToolRequestSchema, callTool);
    return server;
  };
}
