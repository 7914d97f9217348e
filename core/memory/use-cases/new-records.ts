/**
 * The store records of new memories: their contents embedded in one call, their metadata
 * encoded with their content hashes. Shared by the locked and the optimistic remember.
 */
import type { VectorRecord } from "../../ports/vector-store.js";
import { encodeMemoryMetadata } from "../model/memory-metadata.js";
import type { Memory } from "../model/types.js";
import type { ServiceContext } from "../service-context.js";

/**
 * Embeds the memories' contents in one call and returns their records, in order.
 *
 * @example
 * const [record] = await newRecords(context, [{ memory, hash }]);
 * await context.store.upsert([record]);
 */
export async function newRecords(
  context: ServiceContext,
  items: readonly { readonly memory: Memory; readonly hash: string }[],
): Promise<VectorRecord[]> {
  const vectors = await context.embedder.embedDocuments(items.map((i) => i.memory.content));
  return items.map(({ memory, hash }, i) => {
    const vector = vectors[i];
    if (vector === undefined) throw new Error("embedder returned fewer vectors than texts");
    return {
      id: memory.id,
      vector,
      document: memory.content,
      metadata: encodeMemoryMetadata(memory, hash),
    };
  });
}
