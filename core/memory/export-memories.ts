import type { ServiceContext } from "./service-context.js";
import type { Memory } from "./types.js";

/** One line of an export: a full Memory, with its vector and the embedder that made it on request. */
export type ExportedMemory = Memory & {
  readonly vector?: readonly number[];
  readonly embedder?: string;
};

/** Store records read per page when an export includes vectors. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * `GET /v1/export`: every live memory as the engine holds it, oldest first (then by id). The
 * memories are the ones live when the export starts. With `vectors`, each carries its stored
 * vector and the embedder id, read from the store page by page (the engine's index does not
 * hand vectors out); a memory deleted meanwhile is left out.
 *
 * @example
 * for await (const memory of exportMemories(context, { vectors: false })) write(JSON.stringify(memory));
 */
export async function* exportMemories(
  context: ServiceContext,
  options: { readonly vectors: boolean },
): AsyncGenerator<ExportedMemory> {
  const snapshot = [...context.engine.live(context.nowMs())].sort(oldestFirst);
  if (!options.vectors) {
    yield* snapshot;
    return;
  }
  const wanted = new Set(snapshot.map((memory) => memory.id));
  const vectors = new Map<string, readonly number[]>();
  let cursor: string | undefined;
  do {
    const page = await context.store.scan(cursor, EXPORT_PAGE_SIZE);
    for (const record of page.records) {
      if (wanted.has(record.id)) vectors.set(record.id, record.vector);
    }
    cursor = page.next;
  } while (cursor !== undefined);
  const embedder = context.embedder.id;
  for (const memory of snapshot) {
    const current = context.engine.peek(memory.id);
    const vector = vectors.get(memory.id);
    if (current === undefined || vector === undefined) continue;
    yield { ...current, vector, embedder };
  }
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
