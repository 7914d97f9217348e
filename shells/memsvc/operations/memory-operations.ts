import {
  deleteMatchingInputSchema,
  deleteMatchingResultSchema,
  deleteResultSchema,
  listInputSchema,
  listResultSchema,
  memoryIdSchema,
  memorySchema,
  memoryStatsSchema,
  recallInputSchema,
  recallResultSchema,
  rememberBatchInputSchema,
  rememberBatchResultSchema,
  rememberInputSchema,
  rememberResultSchema,
  searchInputSchema,
  searchResultSchema,
  statsInputSchema,
  strictBody,
  updateInputSchema,
  updateResultSchema,
  type DeleteMatchingInput,
  type ListInput,
  type RememberBatchInput,
  type RememberInput,
  type StatsInput,
  type UpdateInput,
} from "../../../core/memory/index.js";
import { READ_ONLY_TOOL, type McpToolAnnotations } from "../../common/mcp/mcp-tool.js";
import { mcpRememberBatchInputSchema, mcpRememberInputSchema } from "../mcp/memory-tool-schemas.js";
import {
  defineMemoryOperation,
  ERROR_TEXT,
  ID_ERRORS,
  JSON_BODY_ERRORS,
  type MemoryOperation,
} from "./memory-operation.js";

/*
 * The memory service's operation table: each use case described once, in one row (see
 * `MemoryOperation`). Generated from it:
 * - the Hono routes with their validators and `describeRoute` docs (`http/memory-operation-routes.ts`),
 *   hence the OpenAPI document, which `generateSpecs` builds from the routes;
 * - the MCP tools (`mcp/memory-tools.ts`), and the tool list in the `/mcp` route's summary;
 * - the fast lane's call table (`http/memory-json-calls.ts`): the rows marked `hot`.
 * Adding a use case: its use-case file in the core, a `MemoryApi` method, one row here (and the
 * web UI, if it shows it). The row order is the order of `tools/list` and of the routes.
 *
 * Hand-written, outside the table, because they are not "input object in, answer object out":
 * `GET /v1/export` and `POST /v1/import` (NDJSON streams, `http/memory-ndjson-routes.ts`),
 * `/healthz`, `/readyz`, `/metrics`, `/openapi.json` and `/mcp` (the service itself, not a use
 * case) and the web UI. Their docs are in `http/memory-route-docs.ts`.
 *
 * The REST summary and the MCP description are two texts: the summary is one line for the API
 * reference, the description tells the model about the arguments; both are published as they
 * were before the table (the OpenAPI document and `tools/list` did not change).
 */

/** A write that stores the same thing when repeated (duplicates are merged). */
const STORES: McpToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
/** A delete: repeating it deletes nothing more. */
const DELETES: McpToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
});
/** A read that counts as an access, so the next answer can differ. */
const READS_AND_COUNTS: McpToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
});

/** `{id}`, and nothing else (decision 0004: an unknown field is refused, not ignored). */
const idInput = strictBody({ id: memoryIdSchema }, "expected an object with an id");
/** A patch body with the memory's `id` beside the fields (MCP arguments are one object). */
const idWithPatch = strictBody(
  { id: memoryIdSchema, ...updateInputSchema.entries },
  "expected an object with an id",
);

/**
 * Every memory use case the services expose, in `tools/list` order.
 *
 * @example
 * const tools = MEMORY_OPERATIONS.flatMap((row) => (row.mcp === undefined ? [] : [row.mcp.name]));
 */
export const MEMORY_OPERATIONS: readonly MemoryOperation[] = Object.freeze([
  defineMemoryOperation({
    input: rememberInputSchema,
    output: rememberResultSchema,
    call: (memory, input) => memory.remember(input as RememberInput),
    rest: {
      method: "post",
      path: "/v1/remember",
      operationId: "remember",
      summary: "Store a memory (identical live content is deduplicated)",
      request: { from: "body", ref: "RememberRequest" },
      response: "RememberResponse",
      errors: JSON_BODY_ERRORS,
      hot: true,
    },
    mcp: {
      name: "remember",
      title: "Remember",
      description:
        "Store a memory (a rule, fact, episode, procedure or preference) for later recall: one self-contained statement that makes sense without this conversation. `scope` is required: `permanent` or `project` for what should last, `session` or `ttl` for what should expire. Identical live content with the same type, scope and project is merged, not duplicated. Returns its id (keep it to correct or forget the memory later).",
      annotations: STORES,
      input: mcpRememberInputSchema,
    },
  }),
  defineMemoryOperation({
    input: rememberBatchInputSchema,
    output: rememberBatchResultSchema,
    call: (memory, input) => memory.rememberBatch(input as RememberBatchInput),
    rest: {
      method: "post",
      path: "/v1/remember/batch",
      operationId: "rememberBatch",
      summary:
        "Store up to 1,000 memories at once; the answer lists {id, stored, deduplicated} per item in order. An invalid item fails the whole batch with a 400 naming memories[i].<field>, and nothing is stored",
      request: { from: "body", ref: "RememberBatchRequest" },
      response: "RememberBatchResponse",
      errors: JSON_BODY_ERRORS,
      hot: true,
    },
    mcp: {
      name: "remember_batch",
      title: "Remember many",
      description:
        "Store up to 1000 memories at once (`memories`: remember arguments each, `scope` required in each). Each is merged into an identical live memory like `remember`. Returns {id, stored, deduplicated} per item, in order. One invalid item stores nothing.",
      annotations: STORES,
      input: mcpRememberBatchInputSchema,
    },
  }),
  defineMemoryOperation({
    input: recallInputSchema,
    output: recallResultSchema,
    call: (memory, input) => memory.recall(input),
    rest: {
      method: "post",
      path: "/v1/recall",
      operationId: "recall",
      summary: "Memories relevant to a message, re-ranked and trimmed to a token budget",
      request: { from: "body", ref: "RecallRequest" },
      response: "RecallResponse",
      errors: JSON_BODY_ERRORS,
      hot: true,
    },
    mcp: {
      name: "recall",
      title: "Recall",
      description:
        "Memories relevant to a message, ranked by similarity, recency, frequency, type, scope and confidence, formatted as a context block that fits a token budget; pass `project` to add that project's memories to the permanent ones; `context_neighbours: 2` adds the conversation turns (episodes) written around each recalled episode. Call it at the start of a task and when the user refers to earlier work, preferences or conventions. Counts as an access of the memories returned. To correct or forget something it told you, find the memory's id with `search` (ids, scores) or `list_memories` (ids, dates), then call `update_memory` or `forget`.",
      annotations: READS_AND_COUNTS,
    },
  }),
  defineMemoryOperation({
    input: searchInputSchema,
    output: searchResultSchema,
    call: (memory, input) => memory.search(input),
    rest: {
      method: "post",
      path: "/v1/search",
      operationId: "search",
      summary:
        "Raw relevance search (no re-ranking, no access update); score is the retrieval index's relevance in [0, 1]",
      request: { from: "body", ref: "SearchRequest" },
      response: "SearchResponse",
      errors: JSON_BODY_ERRORS,
      hot: true,
    },
    mcp: {
      name: "search",
      title: "Search memories",
      description:
        'Raw search over memories: the top `limit` hits with their relevance score in [0, 1], no re-ranking, no access update. Filter with `type`, `scope`, `tags` (all must match) and `min_score`; `include: ["tags", "project"]` adds those fields.',
      annotations: READ_ONLY_TOOL,
    },
  }),
  defineMemoryOperation({
    input: idInput,
    output: deleteResultSchema,
    call: (memory, { id }) => memory.delete(id),
    rest: {
      method: "delete",
      path: "/v1/memories/:id",
      operationId: "deleteMemory",
      summary: "Delete one memory",
      request: { from: "id" },
      response: "DeleteResponse",
      errors: ID_ERRORS,
    },
    mcp: {
      name: "forget",
      title: "Forget a memory",
      description:
        "Delete one memory by id (from `remember`, `search` or `list_memories`): when the user asks you to forget something, or a memory is wrong and not worth correcting.",
      annotations: DELETES,
    },
  }),
  defineMemoryOperation({
    input: idInput,
    output: memorySchema,
    call: (memory, { id }) => memory.get(id),
    rest: {
      method: "get",
      path: "/v1/memories/:id",
      operationId: "getMemory",
      summary: "One memory",
      request: { from: "id" },
      response: "Memory",
      errors: ID_ERRORS,
    },
    mcp: {
      name: "get_memory",
      title: "Get a memory",
      description: "One memory by id with all its fields (not counted as an access).",
      annotations: READ_ONLY_TOOL,
    },
  }),
  defineMemoryOperation({
    input: statsInputSchema,
    output: memoryStatsSchema,
    call: (memory, input) => memory.stats(input as StatsInput),
    rest: {
      method: "get",
      path: "/v1/stats",
      operationId: "getStats",
      summary:
        "Counts of live memories in total, by type and by scope; with the listing's filters (project exact, type, scope, tag, created_after/before, q) only of the memories passing them; with top=N also by_project and by_tag (the N most frequent, the rest summed in other)",
      request: { from: "query" },
      response: "Stats",
      errors: {
        "400": ERROR_TEXT.invalidInput,
        "401": ERROR_TEXT.unauthorized,
        "500": ERROR_TEXT.failed,
      },
    },
    mcp: {
      name: "memory_stats",
      title: "Memory statistics",
      description:
        "Counts of live memories in total, by type and by scope. Narrow with the `list_memories` filters (`project` exact, `type`, `scope`, `tags`, `created_after`/`created_before`, `q`); `top: N` adds `by_project` and `by_tag`, the N most frequent values with their counts.",
      annotations: READ_ONLY_TOOL,
    },
  }),
  defineMemoryOperation({
    input: listInputSchema,
    output: listResultSchema,
    call: (memory, input) => memory.list(input as ListInput),
    rest: {
      method: "get",
      path: "/v1/memories",
      operationId: "listMemories",
      summary:
        "List live memories, newest first (order=oldest to reverse), with exact filters and a stable cursor: pass next_cursor as cursor for the next page",
      request: { from: "query" },
      response: "ListResponse",
      errors: { "400": ERROR_TEXT.invalidInput, "401": ERROR_TEXT.unauthorized },
    },
    mcp: {
      name: "list_memories",
      title: "List memories",
      description:
        'Browse stored memories, newest first (or `order: "oldest"`), with exact filters: `project`, `type`, `scope`, `tags` (all must match), `created_after`/`created_before` (ISO 8601), `q` (substring of the content). Pages of `limit` (default 50); pass `next_cursor` back as `cursor` for the next page.',
      annotations: READ_ONLY_TOOL,
    },
  }),
  defineMemoryOperation({
    input: idWithPatch,
    output: updateResultSchema,
    call: (memory, { id, ...patch }) => memory.update(id, patch as UpdateInput),
    rest: {
      method: "patch",
      path: "/v1/memories/:id",
      operationId: "updateMemory",
      summary:
        "Change fields of a memory (content is embedded again); updated_at changes, created_at and access data do not; a change that makes it a duplicate merges it into the existing memory (deduplicated: true, that id)",
      request: { from: "id+body", body: updateInputSchema, ref: "UpdateMemoryRequest" },
      response: "UpdateMemoryResponse",
      errors: { ...ID_ERRORS, "400": ERROR_TEXT.invalidInput },
    },
    mcp: {
      name: "update_memory",
      title: "Update a memory",
      description:
        "Correct a memory by id: change `content` (embedded again), `type`, `scope`, `tags` (replaced), `project`, `confidence` or `ttl_seconds`. If the change makes it identical to another memory, it merges into that one (answer has `deduplicated: true` and that id).",
      annotations: STORES,
    },
  }),
  defineMemoryOperation({
    input: deleteMatchingInputSchema,
    output: deleteMatchingResultSchema,
    call: (memory, input) => memory.deleteMatching(input as DeleteMatchingInput),
    rest: {
      method: "post",
      path: "/v1/memories/delete",
      operationId: "deleteMemories",
      summary:
        "Delete the live memories matching the filters (project exact); all: true is required without a filter; dry_run: true only counts",
      request: { from: "body", ref: "DeleteMemoriesRequest" },
      response: "DeleteMemoriesResponse",
      errors: JSON_BODY_ERRORS,
    },
    mcp: {
      name: "delete_memories",
      title: "Delete memories by filter",
      description:
        "Delete every memory matching the filters (`project` exact, `type`, `scope`, `tags`, `created_after`, `created_before`, `q`); `all: true` is required to delete without a filter. Use `dry_run: true` first to see how many would go.",
      annotations: DELETES,
    },
  }),
]);
