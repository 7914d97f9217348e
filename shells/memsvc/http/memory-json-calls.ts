import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { MemoryOperation } from "../operations/memory-operation.js";
import { MEMORY_OPERATIONS } from "../operations/memory-operations.js";

/**
 * A hot JSON route's work: the memory the request acts on and the parsed body object in, the
 * answer object out (see {@link memoryJsonCalls}).
 */
export type JsonCall = (memory: MemoryApi, body: object) => Promise<unknown>;

/**
 * What the fast lane does with the body of a hot JSON route (a row of the operation table marked
 * `hot`), by exact path: the row's call, which the Hono route makes too (with the body its
 * validator passed), so both answer alike. Here the body is only parsed: the service method
 * validates it with the core's schema, the same `parseInput` the route's validator reports with.
 * The memory is the request's (its principal's, handed over by the lane). The answer object
 * goes out as JSON.
 *
 * @example
 * const calls = memoryJsonCalls();
 * const answer = await calls["/v1/search"]?.(memory, { message: "deploy steps", limit: 5 });
 */
export function memoryJsonCalls(
  operations: readonly MemoryOperation[] = MEMORY_OPERATIONS,
): Record<string, JsonCall> {
  const calls: Record<string, JsonCall> = {};
  for (const { rest, call } of operations) {
    if (rest?.hot !== true) continue;
    if (rest.method !== "post" || rest.request.from !== "body") {
      throw new Error(`bug: hot route ${rest.path} is not a POST with a JSON body`);
    }
    calls[rest.path] = (memory, body) => call(memory, body as never);
  }
  return calls;
}
