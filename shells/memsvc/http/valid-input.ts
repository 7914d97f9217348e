import { validator } from "hono-openapi";
import * as v from "valibot";
import { memoryIdSchema, parseInput, parseMemoryId } from "../../../core/memory/index.js";

/**
 * How the OpenAPI document renders request schemas: as a client writes them (fields with a
 * default are optional), not as the core receives them after defaults.
 */
export const REQUEST_SCHEMA_OPTIONS = { options: { typeMode: "input" } };

/**
 * The route's JSON body validated by one of the core's schemas (`c.req.valid("json")` is typed
 * by it), named `ref` in the OpenAPI document, which takes the schema from this validator. A
 * failure throws the core's own `invalid_input` error, so the answer is the same 400 the core
 * gives (`confidence: expected a number between 0 and 1, got 1.5`, `unknown field "scop"; did
 * you mean "scope"?`) whichever side validates. Runs after {@link jsonObjectBody}.
 *
 * @example
 * app.post("/v1/remember", body, validJson(rememberInputSchema, "RememberRequest"), (c) =>
 *   c.json(await memory.remember(c.req.valid("json"))));
 */
export function validJson<S extends v.GenericSchema>(schema: S, ref: string) {
  return validator(
    "json",
    v.pipe(schema, v.metadata({ ref })),
    (result) => {
      if (!result.success) throw rejected(() => parseInput(schema, result.data));
    },
    REQUEST_SCHEMA_OPTIONS,
  );
}

const idParam = v.object({ id: memoryIdSchema });

/**
 * The `:id` path parameter validated as a memory id (a UUID), documented from the same schema; a
 * failure throws the core's `invalid_input` error naming `id`.
 *
 * @example
 * app.get("/v1/memories/:id", validMemoryId(), (c) => c.json(await memory.get(c.req.valid("param").id)));
 */
export function validMemoryId() {
  return validator(
    "param",
    idParam,
    (result) => {
      if (!result.success) throw rejected(() => parseMemoryId(result.data.id));
    },
    REQUEST_SCHEMA_OPTIONS,
  );
}

/** The core's error for input the shell's validator refused (the core validates the same way). */
function rejected(validate: () => unknown): unknown {
  try {
    validate();
  } catch (error) {
    return error;
  }
  return new Error("bug: the shell refused input that the core accepts");
}
