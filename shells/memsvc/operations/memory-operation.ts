import type * as v from "valibot";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { McpToolAnnotations, ToolInputSchema } from "../../common/mcp/mcp-tool.js";

/**
 * Where a REST route finds the operation's input (one object, the same the MCP tool receives as
 * its arguments):
 * - `body`: the JSON body is the input, validated by the row's `input` schema and named `ref` in
 *   the OpenAPI document;
 * - `id`: the `:id` path parameter is the input (`{ id }`), validated as a memory id;
 * - `id+body`: `{ id }` from the path beside the JSON body's fields, the body validated by `body`
 *   (named `ref`);
 * - `query`: the query string is the input (`tag` repeatable into `tags`, a numeric `limit` a
 *   number), validated by the core; the document's parameters come from the row's `input`;
 * - `nothing`: no input (`{}`).
 *
 * @example
 * const request: RestRequest = { from: "body", ref: "RememberRequest" };
 */
export type RestRequest =
  | { readonly from: "body"; readonly ref: string }
  | { readonly from: "id" }
  | { readonly from: "id+body"; readonly body: v.GenericSchema; readonly ref: string }
  | { readonly from: "query" }
  | { readonly from: "nothing" };

/**
 * The REST side of an operation: its route, what the OpenAPI document says about it, and
 * whether the fast lane answers it.
 *
 * @example
 * const rest: RestRoute = {
 *   method: "get", path: "/v1/stats", operationId: "getStats", summary: "Counts of live memories",
 *   request: { from: "nothing" }, response: "Stats", errors: { "401": ERROR_TEXT.unauthorized },
 * };
 */
export interface RestRoute {
  readonly method: "get" | "post" | "patch" | "delete";
  /** Hono's syntax (`/v1/memories/:id`); the document writes `{id}`. */
  readonly path: string;
  readonly operationId: string;
  /** The OpenAPI summary: one line for a human reading the API reference. */
  readonly summary: string;
  readonly request: RestRequest;
  /** The component name of the 200 answer's schema (the row's `output`). */
  readonly response: string;
  /** The error answers the document lists, status to description (body `{error}`). */
  readonly errors: Readonly<Record<string, string>>;
  /**
   * Answered by the fast lane in front of Hono when well formed (a `POST` with a JSON `body`
   * only): the lane calls the row's `call` with the parsed body, which the core validates.
   */
  readonly hot?: boolean;
}

/**
 * The MCP side of an operation: the tool as `tools/list` shows it. Its arguments are the row's
 * `input`, its `outputSchema` the row's `output`.
 *
 * @example
 * const mcp: McpBinding = { name: "memory_stats", title: "Memory statistics", description: "…", annotations: READ_ONLY_TOOL };
 */
export interface McpBinding {
  readonly name: string;
  readonly title: string;
  /** Written for the model choosing a tool (longer than the REST summary, and about arguments). */
  readonly description: string;
  readonly annotations: McpToolAnnotations;
  /**
   * The tool's arguments when they differ from the row's `input` (REST keeps the row's): MCP's
   * `remember` requires `scope`, which REST defaults to `session`.
   */
  readonly input?: ToolInputSchema;
}

/**
 * One memory use case as the services expose it: its input and output schemas (the core's),
 * how it calls {@link MemoryApi}, and its REST route and MCP tool, either of which may be
 * absent. The Hono routes, the OpenAPI document, the MCP tools and the fast lane's call table
 * are generated from a list of these (`MEMORY_OPERATIONS`).
 *
 * @example
 * const stats = defineMemoryOperation({
 *   input: v.object({}),
 *   output: memoryStatsSchema,
 *   call: (memory) => memory.stats(),
 *   rest: { method: "get", path: "/v1/stats", ... },
 *   mcp: { name: "memory_stats", ... },
 * });
 */
export interface MemoryOperation<S extends ToolInputSchema = ToolInputSchema> {
  /** The whole input as one object: the MCP arguments, and what the REST route assembles. */
  readonly input: S;
  readonly output: v.GenericSchema;
  /**
   * The use case's call. The input has passed `input` on the MCP side and the route's
   * validator on the REST side, but not on the fast lane (a parsed body): the core's own
   * validation is what holds for all three.
   */
  readonly call: (memory: MemoryApi, input: v.InferOutput<S>) => Promise<object>;
  readonly rest?: RestRoute;
  readonly mcp?: McpBinding;
}

/**
 * Identity function that types `call`'s input from `input`, so a table of rows with different
 * schemas is written without casts.
 *
 * @example
 * const rows: MemoryOperation[] = [defineMemoryOperation({ input: rememberInputSchema, ... })];
 */
export function defineMemoryOperation<S extends ToolInputSchema>(
  operation: MemoryOperation<S>,
): MemoryOperation {
  return operation as unknown as MemoryOperation;
}

/**
 * The descriptions of the error answers the OpenAPI document lists (every error body is
 * `{error}`), shared by the table's rows and the hand-written routes.
 *
 * @example
 * const errors = { "401": ERROR_TEXT.unauthorized, "500": ERROR_TEXT.failed };
 */
export const ERROR_TEXT = Object.freeze({
  invalidInput: "Invalid input; the message names the field and what was expected",
  unauthorized: "Missing or invalid bearer token",
  tooLarge: "Request body over 1,048,576 bytes",
  failed: "Embedder or vector store failure",
  badId: "The id is not a UUID",
  notFound: "No live memory with this id",
  storeFailed: "Vector store failure",
});

/**
 * The errors of a route with a JSON body.
 *
 * @example
 * rest: { method: "post", path: "/v1/remember", errors: JSON_BODY_ERRORS, ... }
 */
export const JSON_BODY_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  "400": ERROR_TEXT.invalidInput,
  "401": ERROR_TEXT.unauthorized,
  "413": ERROR_TEXT.tooLarge,
  "500": ERROR_TEXT.failed,
});

/**
 * The errors of a route about one memory (`/v1/memories/:id`).
 *
 * @example
 * rest: { method: "get", path: "/v1/memories/:id", errors: ID_ERRORS, ... }
 */
export const ID_ERRORS: Readonly<Record<string, string>> = Object.freeze({
  "400": ERROR_TEXT.badId,
  "401": ERROR_TEXT.unauthorized,
  "404": ERROR_TEXT.notFound,
  "500": ERROR_TEXT.storeFailed,
});
