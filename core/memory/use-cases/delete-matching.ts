import { AgentServicesError } from "../../errors.js";
import { deleteMatchingInputSchema } from "../model/admin-schemas.js";
import { compileListFilter, hasListClause } from "../engine/list-filter.js";
import { toListFilter } from "./list-memories.js";
import { parseInput } from "../model/parse-input.js";
import { idLockKey, type ServiceContext } from "../service-context.js";

/** Memories deleted per store call by a delete by filter. */
export const DELETE_BATCH = 1000;

/** Answer of a delete by filter: `matched` only with `dry_run`. */
export interface DeleteMatchingResult {
  readonly deleted: number;
  readonly matched?: number;
}

/**
 * `POST /v1/memories/delete`: deletes every live memory that passes the listing's filters
 * (`project` exact). Without a filter that narrows anything it needs `all: true` (400
 * otherwise); `dry_run: true` counts without deleting (`{deleted: 0, matched: n}`). Deletes in
 * batches of {@link DELETE_BATCH}, each under the locks of its ids and checked again under them,
 * so a memory updated meanwhile to no longer match is kept.
 *
 * @example
 * await deleteMatching(context, { project: "old-project" }); // { deleted: 42 }
 */
export async function deleteMatching(
  context: ServiceContext,
  input: unknown,
): Promise<DeleteMatchingResult> {
  const body = parseInput(deleteMatchingInputSchema, input);
  const filter = toListFilter(body);
  if (!hasListClause(filter) && body.all !== true) {
    throw new AgentServicesError(
      "invalid_input",
      'body: expected at least one filter (project, type, scope, tags, created_after, created_before, q) or "all": true',
    );
  }
  const accept = compileListFilter(filter);
  const { engine } = context;
  const ids: string[] = [];
  for (const memory of await engine.live(context.nowMs())) if (accept(memory)) ids.push(memory.id);
  if (body.dry_run === true) return { deleted: 0, matched: ids.length };
  let deleted = 0;
  for (let i = 0; i < ids.length; i += DELETE_BATCH) {
    const batch = ids.slice(i, i + DELETE_BATCH);
    await context.lock.runAll(batch.map(idLockKey), async () => {
      const nowMs = context.nowMs();
      const still: string[] = [];
      for (const id of batch) {
        const memory = await engine.get(id, nowMs);
        if (memory !== undefined && accept(memory)) still.push(id);
      }
      if (still.length === 0) return;
      await context.store.delete(still);
      for (const id of still) engine.remove(id);
      deleted += still.length;
    });
  }
  return { deleted };
}
