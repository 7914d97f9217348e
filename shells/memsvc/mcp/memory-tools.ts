import * as v from "valibot";
import { strictBody } from "../../../core/memory/model/strict-body.js";
import { isAgentServicesError } from "../../../core/errors.js";
import {
  memoryIdSchema,
  recallInputSchema,
  rememberBatchInputSchema,
  rememberInputSchema,
  searchInputSchema,
} from "../../../core/memory/model/schemas.js";
import {
  deleteMatchingInputSchema,
  listInputSchema,
  updateInputSchema,
} from "../../../core/memory/model/admin-schemas.js";
import {
  deleteMatchingResultSchema,
  deleteResultSchema,
  listResultSchema,
  memorySchema,
  memoryStatsSchema,
  recallResultSchema,
  rememberBatchResultSchema,
  rememberResultSchema,
  searchResultSchema,
  updateResultSchema,
} from "../../../core/memory/model/response-schemas.js";
import type {
  DeleteMatchingInput,
  ListInput,
  RememberBatchInput,
  RememberInput,
  UpdateInput,
} from "../../../core/memory/model/types.js";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
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

/** A patch body with the memory's `id` beside the fields (MCP arguments are one object). */
function strictIdWith<S extends typeof updateInputSchema>(schema: S) {
  return strictBody({ id: memoryIdSchema, ...schema.entries }, "expected an object with an id");
}

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
      output: rememberResultSchema,
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
      output: rememberBatchResultSchema,
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
      output: recallResultSchema,
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
        'Raw search over memories: the top `limit` hits with their relevance score in [0, 1], no re-ranking, no access update. Filter with `type`, `scope`, `tags` (all must match) and `min_score`; `include: ["tags", "project"]` adds those fields.',
      input: searchInputSchema,
      output: searchResultSchema,
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
      output: deleteResultSchema,
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
      output: memorySchema,
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
      output: memoryStatsSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: () => run("memory_stats", () => memory.stats()),
    }),
    defineMcpTool({
      name: "list_memories",
      title: "List memories",
      description:
        'Browse stored memories, newest first (or `order: "oldest"`), with exact filters: `project`, `type`, `scope`, `tags` (all must match), `created_after`/`created_before` (ISO 8601), `q` (substring of the content). Pages of `limit` (default 50); pass `next_cursor` back as `cursor` for the next page.',
      input: listInputSchema,
      output: listResultSchema,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: (args) => run("list_memories", () => memory.list(args as ListInput)),
    }),
    defineMcpTool({
      name: "update_memory",
      title: "Update a memory",
      description:
        "Correct a memory by id: change `content` (embedded again), `type`, `scope`, `tags` (replaced), `project`, `confidence` or `ttl_seconds`. If the change makes it identical to another memory, it merges into that one (answer has `deduplicated: true` and that id).",
      input: strictIdWith(updateInputSchema),
      output: updateResultSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: ({ id, ...patch }) =>
        run("update_memory", () => memory.update(id, patch as UpdateInput)),
    }),
    defineMcpTool({
      name: "delete_memories",
      title: "Delete memories by filter",
      description:
        "Delete every memory matching the filters (`project` exact, `type`, `scope`, `tags`, `created_after`, `created_before`, `q`); `all: true` is required to delete without a filter. Use `dry_run: true` first to see how many would go.",
      input: deleteMatchingInputSchema,
      output: deleteMatchingResultSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: (args) =>
        run("delete_memories", () => memory.deleteMatching(args as DeleteMatchingInput)),
    }),
  ];
}
