import type { VectorStore } from "../ports/vector-store.js";
import { liveFilter } from "./memory-filters.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";
import type { MemoryScope, MemoryStats, MemoryType } from "./types.js";

/**
 * Live memories in the store at `nowMs`: the total and one count per type and per scope, zeros
 * included. The eleven counts run concurrently, so the answer takes about one count's time; they
 * keep the expiry predicate because a count has no similarity index to lose.
 *
 * @example
 * const { total_memories, by_type } = await countMemoryStats(store, clock.now().getTime());
 */
export async function countMemoryStats(store: VectorStore, nowMs: number): Promise<MemoryStats> {
  const live = liveFilter(nowMs);
  const count = (field: string, value: string) =>
    store.count({ and: [live, { field, op: "eq", value }] });
  const [total, types, scopes] = await Promise.all([
    store.count(live),
    Promise.all(MEMORY_TYPES.map((type) => count("type", type))),
    Promise.all(MEMORY_SCOPES.map((scope) => count("scope", scope))),
  ]);
  return {
    total_memories: total,
    by_type: Object.fromEntries(MEMORY_TYPES.map((type, i) => [type, types[i] ?? 0])) as Record<
      MemoryType,
      number
    >,
    by_scope: Object.fromEntries(
      MEMORY_SCOPES.map((scope, i) => [scope, scopes[i] ?? 0]),
    ) as Record<MemoryScope, number>,
  };
}
