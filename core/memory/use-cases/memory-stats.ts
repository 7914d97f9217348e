/** `GET /v1/stats`: how many memories are live, in total, by type and scope, project and tag. */
import { statsInputSchema } from "../model/admin-schemas.js";
import { compileListFilter, hasListClause } from "../engine/list-filter.js";
import type { ValueCount } from "../engine/memory-counts.js";
import { parseInput } from "../model/parse-input.js";
import type { ServiceContext } from "../service-context.js";
import type { MemoryStats, ValueCounts } from "../model/types.js";
import { toListFilter } from "./list-memories.js";

/**
 * The statistics of the memories live now that pass the listing's filters (all when none is
 * given): the total and the counts by type and scope, and with `top` the `top` most frequent
 * projects and tags. Without filters the engine answers from counts it keeps between changes;
 * with them, from one pass over the memories it holds in process (the store is not read).
 * Throws `invalid_input` naming the field.
 *
 * @example
 * const { total_memories } = await memoryStats(context);
 * const { by_tag } = await memoryStats(context, { project: "billing", top: 20 });
 */
export async function memoryStats(
  context: ServiceContext,
  input: unknown = {},
): Promise<MemoryStats> {
  const { top, ...rest } = parseInput(statsInputSchema, input);
  const filter = toListFilter(rest);
  const nowMs = context.nowMs();
  const filtered = hasListClause(filter);
  if (!filtered && top === undefined) return await context.engine.stats(nowMs);
  const counts = await context.engine.counts(
    nowMs,
    filtered ? compileListFilter(filter) : undefined,
  );
  const stats: MemoryStats = {
    total_memories: counts.total,
    by_type: counts.byType,
    by_scope: counts.byScope,
  };
  return top === undefined
    ? stats
    : {
        ...stats,
        by_project: topValues(counts.byProject, top),
        by_tag: topValues(counts.byTag, top),
      };
}

/** The first `top` of values sorted most frequent first, and the sum of the rest. */
function topValues(sorted: readonly ValueCount[], top: number): ValueCounts {
  let other = 0;
  for (let i = top; i < sorted.length; i++) other += (sorted[i] as ValueCount)[1];
  return {
    values: sorted.slice(0, top).map(([value, count]) => ({ value, count })),
    other,
    distinct: sorted.length,
  };
}
