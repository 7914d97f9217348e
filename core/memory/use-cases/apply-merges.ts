/** The write of a duplicate merge, shared by remember and import: store first, then the engine. */
import { duplicateMergeMetadata } from "../model/metadata-updates.js";
import type { ServiceContext } from "../service-context.js";
import type { Memory } from "../model/types.js";

/**
 * Writes the keys a duplicate merge changed (tags, confidence, `updated_at` = `nowMs`) of each
 * memory to the store in one call, then to the engine. The caller holds the memories' id locks;
 * their access data is taken from the engine as it is now (recall takes no lock, so it may have
 * moved since the memories were read).
 *
 * @example
 * await applyMerges(context, [withMerge(current, body, nowMs)], nowMs);
 */
export async function applyMerges(
  context: ServiceContext,
  memories: readonly Memory[],
  nowMs: number,
): Promise<void> {
  const { engine } = context;
  await context.store.updateMetadata(
    memories.map((m) => ({ id: m.id, metadata: duplicateMergeMetadata(m, m, nowMs) })),
  );
  const updatedAt = new Date(nowMs).toISOString();
  for (const memory of memories) {
    const current = engine.peek(memory.id);
    if (current === undefined) continue;
    engine.update({
      ...current,
      tags: memory.tags,
      confidence: memory.confidence,
      updated_at: updatedAt,
    });
  }
}
