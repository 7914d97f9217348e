import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { Logger } from "../../common/logger.js";
import type { ToolCatalog } from "../../common/mcp/tool-catalog.js";
import { describeCause } from "../http/error-response.js";

/**
 * The memory MCP tools as a catalog, with the service's failure and fault log lines: what both
 * the fast lane's `/mcp` route and the app's SDK route serve. Loads its modules on demand (the
 * tool catalog pulls in the JSON Schema conversion), so a service used only over REST does not
 * pay for them.
 *
 * @example
 * const catalog = await loadMemoryToolCatalog(memory, logger);
 * catalog.listResultJson; // '{"tools":[{"name":"remember",…'
 */
export async function loadMemoryToolCatalog(
  memory: MemoryApi,
  logger: Logger,
): Promise<ToolCatalog> {
  const [{ createMemoryTools }, { createToolCatalog }] = await Promise.all([
    import("./memory-tools.js"),
    import("../../common/mcp/tool-catalog.js"),
  ]);
  const tools = createMemoryTools(memory, {
    onFailure: (error, tool) =>
      logger.error("mcp tool failed", { tool, cause: describeCause(error) }),
  });
  return createToolCatalog(tools, {
    onServerFault: (error, tool) =>
      logger.error("mcp tool fault", { tool, cause: describeCause(error) }),
  });
}
