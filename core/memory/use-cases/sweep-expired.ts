/** The expiry sweep: deletes the memories whose expiry has passed (the shell runs it periodically). */
import { idLockKey, type ServiceContext } from "../service-context.js";

/** Memories deleted per store call by the sweep. */
export const SWEEP_BATCH = 1000;

/**
 * Deletes every memory expired now from the store and the engine, in batches of
 * {@link SWEEP_BATCH} ids, each under the locks of its ids and checked again under them.
 * Resolves with how many it deleted. Expired memories are invisible to reads already; the sweep
 * only frees their space.
 *
 * @example
 * const deleted = await sweepExpired(context);
 */
export async function sweepExpired(context: ServiceContext): Promise<number> {
  const { engine } = context;
  const nowMs = context.nowMs();
  const expired = await engine.expired(nowMs);
  let deleted = 0;
  for (let i = 0; i < expired.length; i += SWEEP_BATCH) {
    const ids = expired.slice(i, i + SWEEP_BATCH);
    await context.lock.runAll(ids.map(idLockKey), async () => {
      // Checked again under the locks: nothing un-expires a memory today, but stay exact.
      const still: string[] = [];
      for (const id of ids) {
        const held = engine.peek(id) !== undefined;
        if (held && (await engine.get(id, nowMs)) === undefined) still.push(id);
      }
      if (still.length === 0) return;
      await context.store.delete(still);
      for (const id of still) engine.remove(id);
      deleted += still.length;
    });
  }
  return deleted;
}
