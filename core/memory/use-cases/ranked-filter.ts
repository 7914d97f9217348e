/** The engine filter that recall and search rank within. */
import type { MemoryFilter } from "../engine/memory-filter.js";
import type { MemoryScope, MemoryType } from "../model/types.js";

/**
 * The engine filter of a recall or search body: its project, and its type, scope and tags when
 * given.
 *
 * @example
 * rankedFilter({ project: "billing", type: "rule" }); // { project: "billing", types: ["rule"] }
 */
export function rankedFilter(body: {
  readonly project: string;
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  readonly tags?: readonly string[] | undefined;
}): MemoryFilter {
  return {
    project: body.project,
    ...(body.type === undefined ? {} : { types: [body.type] }),
    ...(body.scope === undefined ? {} : { scopes: [body.scope] }),
    ...(body.tags === undefined ? {} : { tags: body.tags }),
  };
}
