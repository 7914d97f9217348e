import { toJsonSchema } from "@valibot/to-json-schema";
import { describeRoute, resolver } from "hono-openapi";
import * as v from "valibot";
import { importResultSchema, memorySchema } from "../../../core/memory/index.js";
import { JSON_BODY_ERRORS, type MemoryOperation } from "../operations/memory-operation.js";
import { MEMORY_OPERATIONS } from "../operations/memory-operations.js";
import { REQUEST_SCHEMA_OPTIONS } from "./valid-input.js";
import { createdKeySchema, keyListSchema, revokedKeySchema } from "../auth/key-schemas.js";

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
const errors = (descriptions: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(descriptions).map(([status, text]) => [status, error(text)]));
const anyObject = { "application/json": { schema: { type: "object" as const } } };
const ndjsonMemory = { "application/x-ndjson": { schema: named(memorySchema, "Memory") } };

const COMMON_ERRORS = errors(JSON_BODY_ERRORS) as Record<
  "400" | "401" | "413" | "500",
  ReturnType<typeof error>
>;

/**
 * The query parameters of a route that takes its input from the query string, from the schema
 * the core validates with: `tags` is written as a repeatable `tag` parameter.
 */
function queryParameters(schema: Schema) {
  const { properties = {} } = toJsonSchema(schema, {
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
 * What the OpenAPI document says about a row of the operation table beyond what its route's
 * validators tell: operationId, summary, query parameters, responses (the row's output as its
 * `response` component, and its errors). Request bodies and path parameters come from the
 * route's validators.
 *
 * @example
 * app.get("/v1/stats", describeOperation(row), async (c) => c.json(await memory.stats()));
 */
export function describeOperation({ input, output, rest }: MemoryOperation) {
  if (rest === undefined) throw new Error("bug: an operation without a route has no route docs");
  return describeRoute({
    operationId: rest.operationId,
    summary: rest.summary,
    ...(rest.request.from === "query" ? { parameters: queryParameters(input) } : {}),
    responses: { "200": ok(output, rest.response), ...errors(rest.errors) },
  });
}

/** The MCP tools' names, for the `/mcp` route's summary. */
const toolNames = MEMORY_OPERATIONS.flatMap(({ mcp }) => (mcp === undefined ? [] : [mcp.name]));

/**
 * What the OpenAPI document says about each hand-written route (those outside the operation
 * table, see memory-operations.ts) beyond what its validators tell (operationId, summary,
 * responses), as Hono middleware placed on the route itself: a route without its entry is
 * missing from the document, and the document lists only routes that exist.
 *
 * @example
 * app.get("/healthz", ROUTE_DOCS.getHealth, (c) => c.json({ status: "ok" }));
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
      "Store the memories of an export (NDJSON, each line at most 1 MB; one request takes at most 50,000 lines, 256 MiB and 120 s, then answers with `incomplete.stored_through_line` to resume after), keeping ids and timestamps, re-embedding when vectors are absent or from another embedder, deduplicating",
    requestBody: { required: true, content: ndjsonMemory },
    responses: {
      "200": ok(importResultSchema, "ImportResponse"),
      "400": error("Content-Type is not application/x-ndjson"),
      "401": COMMON_ERRORS["401"],
      "413": error("Body declared over 256 MiB (nothing read)"),
      "500": COMMON_ERRORS["500"],
    },
  }),
  mcp: describeRoute({
    operationId: "mcp",
    summary: `MCP (streamable HTTP, stateless JSON): tools ${toolNames.join(", ")}`,
    requestBody: { required: true, content: anyObject },
    responses: {
      "200": { description: "JSON-RPC response", content: anyObject },
      "400": { description: "Malformed JSON-RPC (a JSON-RPC error object)", content: anyObject },
      "401": COMMON_ERRORS["401"],
    },
  }),
  createKey: describeRoute({
    operationId: "createKey",
    summary:
      "Operator only: a new API key for a tenant (`read_only`, `expires_at` optional); the key is in this answer only",
    responses: {
      "200": ok(createdKeySchema, "CreatedKey"),
      "400": COMMON_ERRORS["400"],
      "401": COMMON_ERRORS["401"],
      "403": error("A tenant key: keys are managed with the operator token"),
      "409": error("No operator token configured, or no place to keep keys"),
    },
  }),
  listKeys: describeRoute({
    operationId: "listKeys",
    summary: "Operator only: every API key (never the key or its hash), oldest first",
    parameters: [{ name: "tenant", in: "query", schema: { type: "string" } }],
    responses: {
      "200": ok(keyListSchema, "KeyList"),
      "400": error("tenant is not a tenant name"),
      "401": COMMON_ERRORS["401"],
      "403": error("A tenant key: keys are managed with the operator token"),
      "409": error("No operator token configured, or no place to keep keys"),
    },
  }),
  revokeKey: describeRoute({
    operationId: "revokeKey",
    summary:
      "Operator only: revoke an API key (refused here at once, by other replicas within 5 s)",
    responses: {
      "200": ok(revokedKeySchema, "RevokedKey"),
      "400": error("id is not a key id"),
      "401": COMMON_ERRORS["401"],
      "403": error("A tenant key: keys are managed with the operator token"),
      "404": error("No key with this id"),
      "409": error("No operator token configured, or no place to keep keys"),
    },
  }),
  getMetrics: describeRoute({
    operationId: "getMetrics",
    summary: "Prometheus metrics (text exposition format); operator only",
    responses: {
      "200": {
        description: "Metrics",
        content: { "text/plain; version=0.0.4": { schema: { type: "string" } } },
      },
      "401": COMMON_ERRORS["401"],
      "403": error("A tenant key: metrics count every tenant"),
    },
  }),
};
