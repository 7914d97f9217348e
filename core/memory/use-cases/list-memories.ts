import { listInputSchema } from "../model/admin-schemas.js";
import type { ListFilterInput } from "../model/types.js";
import { compileListFilter, type ListFilter } from "../engine/list-filter.js";
import { listPosition, takePage, type ListPage } from "../engine/list-page.js";
import { parseInput } from "../model/parse-input.js";
import type { ServiceContext } from "../service-context.js";

/**
 * `GET /v1/memories`: one page of the live memories that pass the filters, newest first (or
 * oldest first), from the engine's creation order (a page reads what it returns plus what the
 * filter skips). See `takePage` for why the cursor is stable while memories are added and
 * deleted.
 *
 * @example
 * const { memories, next_cursor } = await listMemories(context, { project: "billing", limit: 100 });
 */
export async function listMemories(context: ServiceContext, input: unknown): Promise<ListPage> {
  const body = parseInput(listInputSchema, input);
  const accept = compileListFilter(toListFilter(body));
  const nowMs = context.nowMs();
  const after = listPosition(body.cursor, body.order);
  const ordered = await context.engine.liveInOrder(nowMs, body.order, after);
  return takePage(ordered, { limit: body.limit, order: body.order, accept });
}

/**
 * The {@link ListFilter} of a validated listing, delete or stats input (instants as epoch ms).
 *
 * @example
 * toListFilter({ project: "billing", created_after: "2026-11-01" });
 */
export function toListFilter(body: ListFilterInput): ListFilter {
  return {
    project: body.project,
    type: body.type,
    scope: body.scope,
    tags: body.tags,
    createdAfterMs: body.created_after === undefined ? undefined : Date.parse(body.created_after),
    createdBeforeMs:
      body.created_before === undefined ? undefined : Date.parse(body.created_before),
    q: body.q,
  };
}
