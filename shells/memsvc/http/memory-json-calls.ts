import type {
  RecallInput,
  RememberBatchInput,
  RememberInput,
  SearchInput,
} from "../../../core/memory/model/types.js";
import type { MemoryApi } from "../../../core/memory/memory-api.js";
import type { JsonCall } from "./memory-fast-path.js";

/**
 * What the memory API's JSON routes do with their body, by path: one function per route, called
 * by the Hono route (with the body its validator passed) and by the fast path (with the parsed
 * body, which the service validates with the same core schema), so both answer alike. The
 * answer object goes out as JSON.
 *
 * @example
 * const calls = memoryJsonCalls(memory);
 * const answer = await calls["/v1/search"]({ message: "deploy steps", limit: 5 });
 */
export function memoryJsonCalls(memory: MemoryApi) {
  return {
    "/v1/remember": (body: object) => memory.remember(body as RememberInput),
    "/v1/remember/batch": (body: object) => memory.rememberBatch(body as RememberBatchInput),
    "/v1/recall": (body: object) => memory.recall(body as RecallInput),
    "/v1/search": (body: object) => memory.search(body as SearchInput),
  } satisfies Record<string, JsonCall>;
}
