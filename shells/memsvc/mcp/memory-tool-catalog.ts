import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { Logger } from "../../common/logger.js";
import type { ToolCatalog } from "../../common/mcp/tool-catalog.js";
import { describeCause } from "../http/error-response.js";

/**
 * The memory MCP tools as a catalog, with the service's failure and fault log lines: what both
 * the fast lane's `/mcp` route and the app's SDK route serve. One catalog per service (memory and
 * logger): the two routes load it on the same first `/mcp` request and share it. Loads its
 * modules on demand (the tool catalog pulls in the JSON Schema conversion), so a service used
 * only over REST does not pay for them; a failed load is tried again on the next call.
 *
 * @example
 * const catalog = await loadMemoryToolCatalog(memory, logger);
 * catalog.listResultJson; // '{"tools":[{"name":"remember",…'
 */
export function loadMemoryToolCatalog(memory: MemoryApi, logger: Logger): Promise<ToolCatalog> {
  let byLogger = loaded.get(memory);
  if (byLogger === undefined) loaded.set(memory, (byLogger = new WeakMap()));
  let catalog = byLogger.get(logger);
  if (catalog === undefined) {
    catalog = buildCatalog(memory, logger);
    byLogger.set(logger, catalog);
    catalog.catch(() => byLogger.delete(logger));
  }
  return catalog;
}

const loaded = new WeakMap<MemoryApi, WeakMap<Logger, Promise<ToolCatalog>>>();

async function buildCatalog(memory: MemoryApi, logger: Logger): Promise<ToolCatalog> {
  const [{ createMemoryTools }, { createToolCatalog }] = await Promise.all([
    import("./memory-tools.js"),
    import("../../common/mcp/tool-catalog.js"),
  ]);
  const tools = createMemoryTools(memory, {
    onFailure: (error, tool) =>
      logger.error("mcp tool failed", { tool, cause: describeCause(error) }),
  });
  return createToolCatalog(tools, {
    invalidArguments: "tool_error",
    onServerFault: (error, tool) =>
      logger.error("mcp tool fault", { tool, cause: describeCause(error) }),
  });
}
