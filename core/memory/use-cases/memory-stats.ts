/** `GET /v1/stats`: how many memories are live, in total, by type and by scope. */
import type { ServiceContext } from "../service-context.js";
import type { MemoryStats } from "../model/types.js";

/**
 * The engine's statistics of the memories live now.
 *
 * @example
 * const { total_memories } = await memoryStats(context);
 */
export async function memoryStats(context: ServiceContext): Promise<MemoryStats> {
  return await context.engine.stats(context.nowMs());
}
