import { isAgentServicesError } from "../../../core/errors.js";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { defineMcpTool, type McpTool, type ToolReply } from "../../common/mcp/mcp-tool.js";
import type { MemoryOperation } from "../operations/memory-operation.js";
import { MEMORY_OPERATIONS } from "../operations/memory-operations.js";
import { describeMemoryKinds } from "./memory-tool-schemas.js";

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /** Told about dependency failures (their causes stay out of the tool result). */
  readonly onFailure?: (error: unknown, tool: string) => void;
}

const PUBLIC_FAILURES: Record<string, string> = {
  embedder_failed: "failed to generate embedding",
  store_unavailable: "vector store unavailable",
  store_busy:
    "vector store busy: writes are refused for now (nothing acknowledged is lost); retry later",
  insufficient_storage:
    "insufficient storage: the service's disk is full; writes are refused until space is freed (reads still work)",
  embedder_mismatch: "vector store holds vectors of another embedder",
};

/**
 * The memory operations as MCP tools: one per row of the operation table with an `mcp` part
 * (memory-operations.ts: `remember`, `remember_batch`, `recall`, `search`, `forget`,
 * `get_memory`, `memory_stats`, `list_memories`, `update_memory`, `delete_memories`), in its
 * order, with the same schemas (and messages) as the REST API, except where a row gives its MCP
 * arguments (`remember` and `remember_batch` require `scope`), and with every `type` and `scope`
 * value explained in the parameters' descriptions ({@link describeMemoryKinds}). memsvc builds
 * their catalog with `invalidArguments: "tool_error"`: invalid arguments are tool results with
 * `isError` naming the parameter (`invalid_input: parameter 'scope': …`), as an unknown id is
 * (`not_found: …`); a failing embedder or store is a tool error with the same fixed text the
 * REST API sends, its cause going to `onFailure`.
 *
 * @example
 * const catalog = createToolCatalog(createMemoryTools(memoryService));
 * mountMcpHttp(app, { info: { name: "memsvc", version }, catalog });
 */
export function createMemoryTools(
  memory: MemoryApi,
  options: MemoryToolsOptions = {},
  operations: readonly MemoryOperation[] = MEMORY_OPERATIONS,
): McpTool[] {
  const run = async (tool: string, work: () => Promise<object>): Promise<ToolReply> => {
    try {
      return { ok: true, result: await work() };
    } catch (error) {
      const fixed = isAgentServicesError(error) ? PUBLIC_FAILURES[error.code] : undefined;
      if (fixed === undefined) throw error;
      options.onFailure?.(error, tool);
      return { ok: false, error: fixed };
    }
  };
  return operations.flatMap(({ input, output, call, mcp }) =>
    mcp === undefined
      ? []
      : [
          defineMcpTool({
            name: mcp.name,
            title: mcp.title,
            description: mcp.description,
            input: describeMemoryKinds(mcp.input ?? input),
            output,
            annotations: mcp.annotations,
            handler: (args) => run(mcp.name, () => call(memory, args)),
          }),
        ],
  );
}
