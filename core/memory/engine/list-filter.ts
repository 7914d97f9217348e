import type { Memory, MemoryScope, MemoryType } from "../model/types.js";
import { compileTagClause } from "./tag-clause.js";

/**
 * Which memories a listing, a delete by filter or an export selects, judged exactly in process.
 * Every clause present must hold. Unlike {@link MemoryFilter} (recall and search), `project` is
 * exact: `permanent` memories of other projects are not added, so deleting a project's memories
 * never deletes global rules.
 *
 * @example
 * const filter: ListFilter = { project: "billing", tags: ["ops"], q: "deploy" };
 */
export interface ListFilter {
  /** Exactly this project (`""`: memories without a project). */
  readonly project?: string | undefined;
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  /** The memory carries every one of these tags. */
  readonly tags?: readonly string[] | undefined;
  /** Created strictly after this instant (epoch ms). */
  readonly createdAfterMs?: number | undefined;
  /** Created strictly before this instant (epoch ms). */
  readonly createdBeforeMs?: number | undefined;
  /** Substring of the content, compared in lower case. */
  readonly q?: string | undefined;
}

/**
 * The filter as a predicate over memories, compiled once per call.
 *
 * @example
 * const accept = compileListFilter({ q: "Deploy" });
 * accept({ ...memory, content: "deploys run on Fridays" }); // true
 */
export function compileListFilter(filter: ListFilter): (memory: Memory) => boolean {
  const { project, type, scope, createdAfterMs, createdBeforeMs } = filter;
  const carriesTags = compileTagClause(filter.tags);
  const q = filter.q === undefined || filter.q === "" ? undefined : filter.q.toLowerCase();
  const timed = createdAfterMs !== undefined || createdBeforeMs !== undefined;
  return (memory) => {
    if (project !== undefined && memory.project !== project) return false;
    if (type !== undefined && memory.type !== type) return false;
    if (scope !== undefined && memory.scope !== scope) return false;
    if (!carriesTags(memory.tags)) return false;
    if (timed) {
      const created = Date.parse(memory.created_at);
      if (createdAfterMs !== undefined && !(created > createdAfterMs)) return false;
      if (createdBeforeMs !== undefined && !(created < createdBeforeMs)) return false;
    }
    return q === undefined || memory.content.toLowerCase().includes(q);
  };
}

/**
 * Whether the filter narrows anything (a delete by filter needs that, or `all: true`). An empty
 * `q` or `tags` admits every memory, so it does not count.
 *
 * @example
 * hasListClause({ q: "", tags: [] }); // false
 * hasListClause({ project: "" }); // true: memories without a project
 */
export function hasListClause(filter: ListFilter): boolean {
  const { q, tags, ...rest } = filter;
  return (
    (q !== undefined && q !== "") ||
    (tags !== undefined && tags.length > 0) ||
    Object.values(rest).some((value) => value !== undefined)
  );
}
