import type { ServiceContext } from "../service-context.js";
import type { Memory } from "../model/types.js";

/** One line of an export: a full Memory, with its vector and the embedder that made it on request. */
export type ExportedMemory = Memory & {
  readonly vector?: readonly number[];
  readonly embedder?: string;
};

/** Store records read per page when an export includes vectors. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * `GET /v1/export`: every memory live when the export starts, as the engine holds it, oldest
 * first (then by id). With `vectors`, each carries its stored vector and the embedder id; the
 * vectors are read from the store page by page (the engine's index does not hand them out), so
 * the lines come in the store's order and only one page of vectors is held at a time. A memory
 * deleted meanwhile is left out.
 *
 * @example
 * for await (const memory of exportMemories(context, { vectors: false })) write(JSON.stringify(memory));
 */
export async function* exportMemories(
  context: ServiceContext,
  options: { readonly vectors: boolean },
): AsyncGenerator<ExportedMemory> {
  const snapshot = [...(await context.engine.live(context.nowMs()))];
  if (!options.vectors) {
    yield* snapshot.sort(oldestFirst);
    return;
  }
  const wanted = new Set(snapshot.map((memory) => memory.id));
  const embedder = context.embedder.id;
  let cursor: string | undefined;
  do {
    const page = await context.store.scan(cursor, EXPORT_PAGE_SIZE);
    for (const record of page.records) {
      const current = wanted.has(record.id) ? context.engine.peek(record.id) : undefined;
      if (current !== undefined) yield { ...current, vector: record.vector, embedder };
    }
    cursor = page.next;
  } while (cursor !== undefined);
}

function oldestFirst(a: Memory, b: Memory): number {
  return a.created_at < b.created_at
    ? -1
    : a.created_at > b.created_at
      ? 1
      : a.id < b.id
        ? -1
        : a.id > b.id
          ? 1
          : 0;
}
