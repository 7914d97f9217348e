import { createMcpServerFactory } from "./create-mcp-server.js";
import { LineStdioTransport } from "./stdio-line-transport.js";
import type { McpServerInfo } from "./mcp-tool.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * Serves the catalog's tools as MCP over this process's stdin/stdout (newline-delimited JSON-RPC),
 * the way desktop assistants launch servers. Resolves once the stdio transport closes (stdin
 * ended). Every malformed line is answered with its JSON-RPC error and the session goes on
 * ({@link LineStdioTransport}). Nothing else may write to stdout while it runs: log to stderr.
 *
 * @example
 * await serveMcpStdio({ name: "sqlsvc-mcp", version }, catalog);
 */
export async function serveMcpStdio(info: McpServerInfo, catalog: ToolCatalog): Promise<void> {
  const server = createMcpServerFactory(info, catalog)();
  const transport = new LineStdioTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // Nothing to answer (an unexpected response, a stream error): noted on stderr, never fatal.
  const reportError = (error: Error): void => {
    process.stderr.write(`mcp stdio: ${error.message}\n`);
  };
  await server.connect(transport);
  server.onerror = reportError;
  await closed;
}
