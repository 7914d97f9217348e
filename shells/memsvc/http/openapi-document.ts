import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import {
  deleteMatchingInputSchema,
  deleteMatchingResultSchema,
  importResultSchema,
  listInputSchema,
  listResultSchema,
  updateInputSchema,
  updateResultSchema,
  deleteResultSchema,
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
} from "../../../core/memory/index.js";

type Json = Record<string, unknown>;

function fromValibot(schema: v.GenericSchema): Json {
  const { $schema: _draft, ...rest } = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "ignore",
  }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ "application/json": { schema } });
const ok = (name: string, description = "OK") => ({ description, content: json(ref(name)) });
const error = (description: string) => ({ description, content: json(ref("Error")) });

/**
 * The query parameters of `GET /v1/memories`, from the list schema: `tags` is written as a
 * repeatable `tag` parameter.
 */
function listParameters(): Json[] {
  const { properties = {} } = fromValibot(listInputSchema) as { properties?: Record<string, Json> };
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
 * The OpenAPI 3.1 document of the memory API. Request bodies are converted from the core's
 * valibot schemas (the same ones that validate requests), so the document cannot drift from the
 * validation; responses come from the core's response schemas. Built once per app.
 *
 * @example
 * const doc = buildOpenApiDocument("0.1.0");
 * doc.paths["/v1/remember"].post.requestBody; // the remember schema, from valibot
 */
export function buildOpenApiDocument(version: string) {
  const bearer = [{ bearer: [] }];
  const body = (name: string) => ({ required: true, content: json(ref(name)) });
  const idParam = [{ name: "id", in: "path", required: true, schema: fromValibot(memoryIdSchema) }];
  return {
    openapi: "3.1.0",
    info: {
      title: "memsvc: memory service API",
      version,
      description:
        "Stores, searches and recalls text memories for assistants. With `api.auth_token` set, every path except /healthz needs `Authorization: Bearer <token>`.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // Relative: the service that serves this document at /openapi.json.
    servers: [{ url: "/", description: "This memsvc instance" }],
    security: bearer,
    paths: {
      "/healthz": {
        get: {
          operationId: "getHealth",
          summary: "Liveness",
          security: [],
          responses: { "200": ok("Health") },
        },
      },
      "/readyz": {
        get: {
          operationId: "getReadiness",
          summary: "Readiness: the vector store and the embedder answer",
          responses: {
            "200": ok("Health"),
            "401": COMMON_ERRORS["401"],
            "503": error("Not ready"),
          },
        },
      },
      "/v1/remember": {
        post: {
          operationId: "remember",
          summary: "Store a memory (identical live content is deduplicated)",
          requestBody: body("RememberRequest"),
          responses: { "200": ok("RememberResponse"), ...COMMON_ERRORS },
        },
      },
      "/v1/remember/batch": {
        post: {
          operationId: "rememberBatch",
          summary:
            "Store up to 1,000 memories at once; the answer lists {id, stored, deduplicated} per item in order. An invalid item fails the whole batch with a 400 naming memories[i].<field>, and nothing is stored",
          requestBody: body("RememberBatchRequest"),
          responses: { "200": ok("RememberBatchResponse"), ...COMMON_ERRORS },
        },
      },
      "/v1/recall": {
        post: {
          operationId: "recall",
          summary: "Memories relevant to a message, re-ranked and trimmed to a token budget",
          requestBody: body("RecallRequest"),
          responses: { "200": ok("RecallResponse"), ...COMMON_ERRORS },
        },
      },
      "/v1/search": {
        post: {
          operationId: "search",
          summary:
            "Raw relevance search (no re-ranking, no access update); score is the retrieval index's relevance in [0, 1]",
          requestBody: body("SearchRequest"),
          responses: { "200": ok("SearchResponse"), ...COMMON_ERRORS },
        },
      },
      "/v1/memories/{id}": {
        get: {
          operationId: "getMemory",
          summary: "One memory",
          parameters: idParam,
          responses: { "200": ok("Memory"), ...ID_ERRORS },
        },
        delete: {
          operationId: "deleteMemory",
          summary: "Delete one memory",
          parameters: idParam,
          responses: { "200": ok("DeleteResponse"), ...ID_ERRORS },
        },
        patch: {
          operationId: "updateMemory",
          summary:
            "Change fields of a memory (content is embedded again); updated_at changes, created_at and access data do not; a change that makes it a duplicate merges it into the existing memory (deduplicated: true, that id)",
          parameters: idParam,
          requestBody: body("UpdateMemoryRequest"),
          responses: {
            "200": ok("UpdateMemoryResponse"),
            ...ID_ERRORS,
            "400": COMMON_ERRORS["400"],
          },
        },
      },
      "/v1/memories": {
        get: {
          operationId: "listMemories",
          summary:
            "List live memories, newest first (order=oldest to reverse), with exact filters and a stable cursor: pass next_cursor as cursor for the next page",
          parameters: listParameters(),
          responses: {
            "200": ok("ListResponse"),
            "400": COMMON_ERRORS["400"],
            "401": COMMON_ERRORS["401"],
          },
        },
      },
      "/v1/memories/delete": {
        post: {
          operationId: "deleteMemories",
          summary:
            "Delete the live memories matching the filters (project exact); all: true is required without a filter; dry_run: true only counts",
          requestBody: body("DeleteMemoriesRequest"),
          responses: { "200": ok("DeleteMemoriesResponse"), ...COMMON_ERRORS },
        },
      },
      "/v1/export": {
        get: {
          operationId: "exportMemories",
          summary:
            "Every live memory as NDJSON, one full Memory per line; vectors=true adds vector and embedder",
          parameters: [
            { name: "vectors", in: "query", schema: { type: "boolean", default: false } },
          ],
          responses: {
            "200": {
              description: "One Memory object per line",
              content: { "application/x-ndjson": { schema: ref("Memory") } },
            },
            "400": COMMON_ERRORS["400"],
            "401": COMMON_ERRORS["401"],
            "500": COMMON_ERRORS["500"],
          },
        },
      },
      "/v1/import": {
        post: {
          operationId: "importMemories",
          summary:
            "Store the memories of an export (NDJSON, each line at most 1 MB, the body at most 1 GiB), keeping ids and timestamps, re-embedding when vectors are absent or from another embedder, deduplicating",
          requestBody: {
            required: true,
            content: { "application/x-ndjson": { schema: ref("Memory") } },
          },
          responses: {
            "200": ok("ImportResponse"),
            "400": error("Content-Type is not application/x-ndjson"),
            "401": COMMON_ERRORS["401"],
            "413": error("Body over 1 GiB"),
            "500": COMMON_ERRORS["500"],
          },
        },
      },
      "/v1/stats": {
        get: {
          operationId: "getStats",
          summary: "Counts of live memories",
          responses: {
            "200": ok("Stats"),
            "401": COMMON_ERRORS["401"],
            "500": COMMON_ERRORS["500"],
          },
        },
      },
      "/mcp": {
        post: {
          operationId: "mcp",
          summary:
            "MCP (streamable HTTP, stateless JSON): tools remember, remember_batch, recall, search, forget, get_memory, memory_stats, list_memories, update_memory, delete_memories",
          requestBody: { required: true, content: json({ type: "object" }) },
          responses: {
            "200": { description: "JSON-RPC response", content: json({ type: "object" }) },
            "400": {
              description: "Malformed JSON-RPC (a JSON-RPC error object)",
              content: json({ type: "object" }),
            },
            "401": COMMON_ERRORS["401"],
          },
        },
      },
      "/metrics": {
        get: {
          operationId: "getMetrics",
          summary: "Prometheus metrics (text exposition format)",
          responses: {
            "200": {
              description: "Metrics",
              content: { "text/plain; version=0.0.4": { schema: { type: "string" } } },
            },
            "401": COMMON_ERRORS["401"],
          },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        RememberRequest: fromValibot(rememberInputSchema),
        RememberBatchRequest: fromValibot(rememberBatchInputSchema),
        RecallRequest: fromValibot(recallInputSchema),
        SearchRequest: fromValibot(searchInputSchema),
        Error: { type: "object", properties: { error: { type: "string" } }, required: ["error"] },
        Health: {
          type: "object",
          properties: { status: { type: "string" } },
          required: ["status"],
        },
        RememberResponse: fromValibot(rememberResultSchema),
        RememberBatchResponse: fromValibot(rememberBatchResultSchema),
        RecallResponse: fromValibot(recallResultSchema),
        SearchResponse: fromValibot(searchResultSchema),
        Memory: fromValibot(memorySchema),
        DeleteResponse: fromValibot(deleteResultSchema),
        Stats: fromValibot(memoryStatsSchema),
        ListResponse: fromValibot(listResultSchema),
        UpdateMemoryRequest: fromValibot(updateInputSchema),
        UpdateMemoryResponse: fromValibot(updateResultSchema),
        DeleteMemoriesRequest: fromValibot(deleteMatchingInputSchema),
        DeleteMemoriesResponse: fromValibot(deleteMatchingResultSchema),
        ImportResponse: fromValibot(importResultSchema),
      },
    },
  };
}
