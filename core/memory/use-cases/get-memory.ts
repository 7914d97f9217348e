/** `GET /v1/memories/{id}`: one live memory by id. */
import { parseMemoryId } from "../model/parse-input.js";
import { memoryNotFound, type ServiceContext } from "../service-context.js";
import type { Memory } from "../model/types.js";

/**
 * The live memory with this id (any case); `not_found` when it is unknown or expired.
 *
 * @example
 * const memory = await getMemory(context, "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11");
 */
export async function getMemory(context: ServiceContext, id: string): Promise<Memory> {
  const memoryId = parseMemoryId(id);
  const memory = await context.engine.get(memoryId, context.nowMs());
  if (memory === undefined) throw memoryNotFound(memoryId);
  return memory;
}
