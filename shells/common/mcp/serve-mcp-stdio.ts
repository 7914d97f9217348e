import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServerFactory } from "./create-mcp-server.js";
import type { McpServerInfo } from "./mcp-tool.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * Serves the catalog's tools as MCP over this process's stdin/stdout (newline-delimited JSON-RPC),
 * the way desktop assistants launch servers. Resolves once the stdio transport closes (stdin
 * ended). Nothing else may write to stdout while it runs: log to stderr.
 *
 * @example
 * await serveMcpStdio({ name: "sqlsvc-mcp", version }, catalog);
 */
export async function serveMcpStdio(info: McpServerInfo, catalog: ToolCatalog): Promise<void> {
  const server = createMcpServerFactory(info, catalog)();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(transport);
  // The SDK's stdio transport does not notice the end of stdin; a client closing the pipe ends us.
  process.stdin.once("end", () => void server.close());
  await closed;
}
