import type { Context, Hono, MiddlewareHandler } from "hono";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import { memoryOfOption, type MemoryOf } from "./memory-of.js";
import { principalOf } from "./principal.js";
import type { MemoryOperation, RestRoute } from "../operations/memory-operation.js";
import { MEMORY_OPERATIONS } from "../operations/memory-operations.js";
import { describeOperation } from "./memory-route-docs.js";
import { validJson, validMemoryId } from "./valid-input.js";

/**
 * The routes of the operation table (memory-operations.ts), in its order: each with its
 * `describeRoute` docs, the JSON object reader `body` when it reads one, its validators (the
 * core's schemas; the body's shape first, then the id, then the fields: the order the core
 * reports them in) and a handler that assembles the row's input and answers its `call` as JSON.
 * The hot rows' calls are the fast lane's too (memory-json-calls.ts): both call the row.
 *
 * @example
 * mountMemoryOperations(app, service, jsonObjectBody(MAX_BODY_BYTES));
 */
export function mountMemoryOperations(
  app: Hono,
  memory: MemoryApi | MemoryOf,
  body: MiddlewareHandler,
  operations: readonly MemoryOperation[] = MEMORY_OPERATIONS,
): void {
  const memoryOf = memoryOfOption(memory);
  for (const operation of operations) {
    const { rest, call } = operation;
    if (rest === undefined) continue;
    const handler = async (c: Context) =>
      c.json(await call(memoryOf(principalOf(c)), inputOf(rest, c)));
    const docs = describeOperation(operation);
    app.on(
      rest.method.toUpperCase(),
      rest.path,
      docs,
      ...validators(operation, rest, body),
      handler,
    );
  }
}

/** The middleware between a route's docs and its handler. */
function validators(
  { input }: MemoryOperation,
  { request }: RestRoute,
  body: MiddlewareHandler,
): MiddlewareHandler[] {
  switch (request.from) {
    case "body":
      return [body, validJson(input, request.ref)];
    case "id":
      return [validMemoryId()];
    case "id+body":
      return [body, validMemoryId(), validJson(request.body, request.ref)];
    case "query":
    case "nothing":
      return [];
  }
}

/** What the validators passed, as Hono's `c.req.valid` holds it (typed per route otherwise). */
interface ValidRequest {
  valid(target: "json" | "param"): Record<string, unknown>;
}

/** The row's input object, assembled from the request as its `request.from` says. */
function inputOf({ request }: RestRoute, c: Context): Record<string, unknown> {
  const req = c.req as unknown as ValidRequest;
  switch (request.from) {
    case "body":
      return req.valid("json");
    case "id":
      return req.valid("param");
    case "id+body":
      return { ...req.valid("json"), ...req.valid("param") };
    case "query":
      return queryInputOf(c.req.queries());
    case "nothing":
      return {};
  }
}

/** Query parameters that are numbers when they look like one (validation judges the rest). */
const NUMERIC_PARAMETERS = new Set(["limit", "top"]);

/**
 * An input from query parameters: `tag` (or `tags`) repeatable into `tags`, `limit` and `top`
 * numbers when they are one; any other repeated parameter stays an array so validation names it.
 */
function queryInputOf(queries: Record<string, string[]>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(queries)) {
    if (name === "tag" || name === "tags") {
      input["tags"] = [...((input["tags"] as string[] | undefined) ?? []), ...values];
      continue;
    }
    const value = values.length === 1 ? values[0] : values;
    input[name] =
      NUMERIC_PARAMETERS.has(name) && typeof value === "string" && /^\d+$/.test(value)
        ? Number(value)
        : value;
  }
  return input;
}
