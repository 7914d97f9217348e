import type { VectorStore } from "../ports/vector-store.js";
import { expiredFilter } from "./memory-filters.js";

/** Records deleted per round trip by the sweep (well under Chroma's batch limit). */
export const SWEEP_BATCH = 1000;

/**
 * Deletes the memories expired at `nowMs` in batches of {@link SWEEP_BATCH} and returns how many
 * it deleted. `keep(id)` spares a memory for this round: the service keeps those a recall has
 * just accessed, whose access (not written yet) may extend them.
 *
 * @example
 * await sweepExpiredMemories(store, clock.now().getTime(), () => false); // 3
 */
export async function sweepExpiredMemories(
  store: VectorStore,
  nowMs: number,
  keep: (id: string) => boolean,
): Promise<number> {
  const filter = expiredFilter(nowMs);
  const seen = new Set<string>();
  let deleted = 0;
  for (;;) {
    const batch = (await store.find(filter, SWEEP_BATCH)).filter((r) => !seen.has(r.id));
    // A store that keeps returning what it was told to delete (or what was kept) must not loop
    // forever.
    if (batch.length === 0) break;
    for (const record of batch) seen.add(record.id);
    const ids = batch.map((r) => r.id).filter((id) => !keep(id));
    if (ids.length > 0) await store.delete(ids);
    deleted += ids.length;
    if (batch.length < SWEEP_BATCH) break;
  }
  return deleted;
}
