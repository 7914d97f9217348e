/** `DELETE /v1/memories/{id}`: deletes one live memory. */
import { idLockKey, memoryNotFound, type ServiceContext } from "../service-context.js";

/**
 * Deletes the live memory with this id, from the store first and then from the engine, under
 * the id's lock (so no merge into it or update of it runs meanwhile); `not_found` when it is
 * unknown or expired. Takes an id already checked by `parseMemoryId`: the service checks it
 * before its write gate, so a bad id is `invalid_input` even during shutdown.
 *
 * @example
 * await deleteMemory(context, parseMemoryId(id)); // { deleted: true }
 */
export async function deleteMemory(
  context: ServiceContext,
  memoryId: string,
): Promise<{ deleted: true }> {
  return context.lock.run(idLockKey(memoryId), async () => {
    if ((await context.engine.get(memoryId, context.nowMs())) === undefined) {
      throw memoryNotFound(memoryId);
    }
    await context.store.delete([memoryId]);
    context.engine.remove(memoryId);
    return { deleted: true } as const;
  });
}
