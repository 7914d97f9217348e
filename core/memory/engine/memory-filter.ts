import type { Memory, MemoryScope, MemoryType } from "../model/types.js";
import { compileTagClause } from "./tag-clause.js";

/**
 * Which memories a recall, search or listing considers, judged exactly in process. Every clause
 * that is present must hold; an absent clause admits everything.
 *
 * - `project`: that project's memories plus `permanent` ones (global rules apply everywhere);
 *   `""` or absent means no project filter.
 * - `types`, `scopes`: the memory's type (scope) is one of these.
 * - `tags`: the memory carries every one of these tags.
 *
 * @example
 * const filter: MemoryFilter = { project: "billing", types: ["rule", "procedure"] };
 */
export interface MemoryFilter {
  readonly project?: string;
  readonly types?: readonly MemoryType[];
  readonly scopes?: readonly MemoryScope[];
  readonly tags?: readonly string[];
}

/**
 * The filter as a predicate over memories. Compiled once per query: the sets are built here,
 * not per memory.
 *
 * @example
 * const accept = compileMemoryFilter({ project: "billing" });
 * accept({ ...memory, project: "", scope: "permanent" }); // true
 */
export function compileMemoryFilter(
  filter: MemoryFilter,
): (memory: Pick<Memory, "project" | "scope" | "type" | "tags">) => boolean {
  const project = filter.project ?? "";
  const types = filter.types === undefined ? undefined : new Set<string>(filter.types);
  const scopes = filter.scopes === undefined ? undefined : new Set<string>(filter.scopes);
  const carriesTags = compileTagClause(filter.tags);
  return (memory) =>
    (project === "" || memory.project === project || memory.scope === "permanent") &&
    (types === undefined || types.has(memory.type)) &&
    (scopes === undefined || scopes.has(memory.scope)) &&
    carriesTags(memory.tags);
}
