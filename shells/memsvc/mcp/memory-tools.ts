import * as v from "valibot";
import { isAgentServicesError } from "../../../core/errors.js";
import {
  memoryIdSchema,
  recallInputSchema,
  rememberBatchInputSchema,
  rememberInputSchema,
  searchInputSchema,
} from "../../../core/memory/schemas.js";
import type { MemoryApi, RememberBatchInput, RememberInput } from "../../../core/memory/types.js";
import { defineMcpTool, type McpTool, type ToolReply } from "../../common/mcp/mcp-tool.js";

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /** Told about dependency failures (their causes stay out of the tool result). */
  readonly onFailure?: (error: unknown, tool: string) => void;
}

const PUBLIC_FAILURES: Record<string, string> = {
  embedder_failed: "failed to generate embedding",
  store_unavailable: "vector store unavailable",
  embedder_mismatch: "vector store holds vectors of another embedder",
};

const idInput = v.object({ id: memoryIdSchema }, "expected an object with an id");

/**
 * The memory operations as MCP tools: `remember`, `remember_batch`, `recall`, `search`, `forget`, `get_memory` and
 * `memory_stats`, with the same schemas (and messages) as the REST API. Invalid arguments are
 * JSON-RPC -32602 errors naming the parameter; an unknown id is a tool result with `isError`
 * (`not_found: …`); a failing embedder or store is a tool error with the same fixed text the
 * REST API sends, its cause going to `onFailure`.
 *
 * @example
 * const catalog = createToolCatalog(createMemoryTools(memoryService));
 * mountMcpHttp(app, { info: { name: "memsvc", version }, catalog });
 */
export function createMemoryTools(memory: MemoryApi, options: MemoryToolsOptions = {}): McpTool[] {
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
  return [
    defineMcpTool({
      name: "remember",
      title: "Remember",
      description:
        "Store a memory (a rule, fact, episode, procedure or preference) for later recall. Identical live content with the same type, scope and project is merged, not duplicated. Returns its id.",
      input: rememberInputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: (args) => run("remember", () => memory.remember(args as RememberInput)),
    }),
    defineMcpTool({
      name: "remember_batch",
      title: "Remember many",
      description:
        "Store up to 1000 memories at once (`memories`: remember arguments each). Each is merged into an identical live memory like `remember`. Returns {id, stored, deduplicated} per item, in order. One invalid item stores nothing.",
      input: rememberBatchInputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: (args) =>
        run("remember_batch", () => memory.rememberBatch(args as RememberBatchInput)),
    }),
    defineMcpTool({
      name: "recall",
      title: "Recall",
      description:
        "Memories relevant to a message, ranked by similarity, recency, frequency, type, scope and confidence, formatted as a context block that fits a token budget. Counts as an access of the memories returned.",
      input: recallInputSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: (args) => run("recall", () => memory.recall(args)),
    }),
    defineMcpTool({
      name: "search",
      title: "Search memories",
      description:
        "Raw search over memories: the top `limit` hits with their relevance score in [0, 1], no re-ranking, no access update.",
      input: searchInputSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: (args) => run("search", () => memory.search(args)),
    }),
    defineMcpTool({
      name: "forget",
      title: "Forget a memory",
      description: "Delete one memory by id.",
      input: idInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: ({ id }) => run("forget", () => memory.delete(id)),
    }),
    defineMcpTool({
      name: "get_memory",
      title: "Get a memory",
      description: "One memory by id with all its fields (not counted as an access).",
      input: idInput,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: ({ id }) => run("get_memory", () => memory.get(id)),
    }),
    defineMcpTool({
      name: "memory_stats",
      title: "Memory statistics",
      description: "Counts of live memories in total, by type and by scope.",
      input: v.object({}),
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: () => run("memory_stats", () => memory.stats()),
    }),
  ];
}
