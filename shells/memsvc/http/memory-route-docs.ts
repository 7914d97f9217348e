import { toJsonSchema } from "@valibot/to-json-schema";
import { describeRoute, resolver } from "hono-openapi";
import * as v from "valibot";
import {
  deleteMatchingResultSchema,
  deleteResultSchema,
  importResultSchema,
  listInputSchema,
  listResultSchema,
  memorySchema,
  memoryStatsSchema,
  recallResultSchema,
  rememberBatchResultSchema,
  rememberResultSchema,
  searchResultSchema,
  updateResultSchema,
} from "../../../core/memory/index.js";
import { REQUEST_SCHEMA_OPTIONS } from "./valid-input.js";

type Schema = v.GenericSchema;

/** A core schema as a named component of the document (`#/components/schemas/<ref>`). */
const named = (schema: Schema, ref: string) =>
  resolver(v.pipe(schema, v.metadata({ ref })), REQUEST_SCHEMA_OPTIONS);
const json = (schema: Schema, ref: string) => ({
  "application/json": { schema: named(schema, ref) },
});
const ok = (schema: Schema, ref: string, description = "OK") => ({
  description,
  content: json(schema, ref),
});

const errorSchema = v.object({ error: v.string() });
const healthSchema = v.object({ status: v.string() });
const error = (description: string) => ({ description, content: json(errorSchema, "Error") });
const anyObject = { "application/json": { schema: { type: "object" as const } } };
const ndjsonMemory = { "application/x-ndjson": { schema: named(memorySchema, "Memory") } };

const COMMON_ERRORS = {
  "400": error("Invalid input; the message names the field and what was expected"),
  "401": error("Missing or invalid bearer token"),
  "413": error("Request body over 1,048,576 bytes"),
  "500": error("Embedder or vector store failure"),
};
const ID_ERRORS = {
  "400": error("The id is not a UUID"),
  "401": error("Missing or invalid bearer token"),
  "404": error("No live memory with this id"),
  "500": error("Vector store failure"),
};

/**
 * The query parameters of `GET /v1/memories`, from the list schema the core validates with:
 * `tags` is written as a repeatable `tag` parameter.
 */
function listParameters() {
  const { properties = {} } = toJsonSchema(listInputSchema, {
    typeMode: "input",
    errorMode: "ignore",
  }) as { properties?: Record<string, object> };
  return Object.entries(properties).map(([name, schema]) =>
    name === "tags"
      ? {
          name: "tag",
          in: "query",
          description: "Repeatable: memories carrying every given tag.",
          schema,
          style: "form",
          explode: true,
        }
      : { name, in: "query", schema },
  );
}

/**
 * What the OpenAPI document says about each route beyond what its validators tell (operationId,
 * summary, responses), as Hono middleware placed on the route itself: a route without its entry
 * here is missing from the document, and the document lists only routes that exist. Request
 * bodies and path parameters come from the route's validators.
 *
 * @example
 * app.get("/v1/stats", ROUTE_DOCS.getStats, async (c) => c.json(await memory.stats()));
 */
export const ROUTE_DOCS = {
  getHealth: describeRoute({
    operationId: "getHealth",
    summary: "Liveness",
    security: [],
    responses: { "200": ok(healthSchema, "Health") },
  }),
  getReadiness: describeRoute({
    operationId: "getReadiness",
    summary: "Readiness: the vector store and the embedder answer",
    responses: {
      "200": ok(healthSchema, "Health"),
      "401": COMMON_ERRORS["401"],
      "503": error("Not ready"),
    },
  }),
  getOpenApi: describeRoute({
    operationId: "getOpenApi",
    summary: "This document",
    responses: {
      "200": { description: "The OpenAPI 3.1 document", content: anyObject },
      "401": COMMON_ERRORS["401"],
    },
  }),
  remember: describeRoute({
    operationId: "remember",
    summary: "Store a memory (identical live content is deduplicated)",
    responses: { "200": ok(rememberResultSchema, "RememberResponse"), ...COMMON_ERRORS },
  }),
  rememberBatch: describeRoute({
    operationId: "rememberBatch",
    summary:
      "Store up to 1,000 memories at once; the answer lists {id, stored, deduplicated} per item in order. An invalid item fails the whole batch with a 400 naming memories[i].<field>, and nothing is stored",
    responses: { "200": ok(rememberBatchResultSchema, "RememberBatchResponse"), ...COMMON_ERRORS },
  }),
  recall: describeRoute({
    operationId: "recall",
    summary: "Memories relevant to a message, re-ranked and trimmed to a token budget",
    responses: { "200": ok(recallResultSchema, "RecallResponse"), ...COMMON_ERRORS },
  }),
  search: describeRoute({
    operationId: "search",
    summary:
      "Raw relevance search (no re-ranking, no access update); score is the retrieval index's relevance in [0, 1]",
    responses: { "200": ok(searchResultSchema, "SearchResponse"), ...COMMON_ERRORS },
  }),
  getMemory: describeRoute({
    operationId: "getMemory",
    summary: "One memory",
    responses: { "200": ok(memorySchema, "Memory"), ...ID_ERRORS },
  }),
  deleteMemory: describeRoute({
    operationId: "deleteMemory",
    summary: "Delete one memory",
    responses: { "200": ok(deleteResultSchema, "DeleteResponse"), ...ID_ERRORS },
  }),
  updateMemory: describeRoute({
    operationId: "updateMemory",
    summary:
      "Change fields of a memory (content is embedded again); updated_at changes, created_at and access data do not; a change that makes it a duplicate merges it into the existing memory (deduplicated: true, that id)",
    responses: {
      "200": ok(updateResultSchema, "UpdateMemoryResponse"),
      ...ID_ERRORS,
      "400": COMMON_ERRORS["400"],
    },
  }),
  listMemories: describeRoute({
    operationId: "listMemories",
    summary:
      "List live memories, newest first (order=oldest to reverse), with exact filters and a stable cursor: pass next_cursor as cursor for the next page",
    parameters: listParameters(),
    responses: {
      "200": ok(listResultSchema, "ListResponse"),
      "400": COMMON_ERRORS["400"],
      "401": COMMON_ERRORS["401"],
    },
  }),
  deleteMemories: describeRoute({
    operationId: "deleteMemories",
    summary:
      "Delete the live memories matching the filters (project exact); all: true is required without a filter; dry_run: true only counts",
    responses: {
      "200": ok(deleteMatchingResultSchema, "DeleteMemoriesResponse"),
      ...COMMON_ERRORS,
    },
  }),
  exportMemories: describeRoute({
    operationId: "exportMemories",
    summary:
      "Every live memory as NDJSON, one full Memory per line; vectors=true adds vector and embedder",
    parameters: [{ name: "vectors", in: "query", schema: { type: "boolean", default: false } }],
    responses: {
      "200": { description: "One Memory object per line", content: ndjsonMemory },
      "400": COMMON_ERRORS["400"],
      "401": COMMON_ERRORS["401"],
      "500": COMMON_ERRORS["500"],
    },
  }),
  importMemories: describeRoute({
    operationId: "importMemories",
    summary:
      "Store the memories of an export (NDJSON, each line at most 1 MB, the body at most 1 GiB), keeping ids and timestamps, re-embedding when vectors are absent or from another embedder, deduplicating",
    requestBody: { required: true, content: ndjsonMemory },
    responses: {
      "200": ok(importResultSchema, "ImportResponse"),
      "400": error("Content-Type is not application/x-ndjson"),
      "401": COMMON_ERRORS["401"],
      "413": error("Body over 1 GiB"),
      "500": COMMON_ERRORS["500"],
    },
  }),
  getStats: describeRoute({
    operationId: "getStats",
    summary: "Counts of live memories",
    responses: {
      "200": ok(memoryStatsSchema, "Stats"),
      "401": COMMON_ERRORS["401"],
      "500": COMMON_ERRORS["500"],
    },
  }),
  mcp: describeRoute({
    operationId: "mcp",
    summary:
      "MCP (streamable HTTP, stateless JSON): tools remember, remember_batch, recall, search, forget, get_memory, memory_stats, list_memories, update_memory, delete_memories",
    requestBody: { required: true, content: anyObject },
    responses: {
      "200": { description: "JSON-RPC response", content: anyObject },
      "400": { description: "Malformed JSON-RPC (a JSON-RPC error object)", content: anyObject },
      "401": COMMON_ERRORS["401"],
    },
  }),
  getMetrics: describeRoute({
    operationId: "getMetrics",
    summary: "Prometheus metrics (text exposition format)",
    responses: {
      "200": {
        description: "Metrics",
        content: { "text/plain; version=0.0.4": { schema: { type: "string" } } },
      },
      "401": COMMON_ERRORS["401"],
    },
  }),
};
