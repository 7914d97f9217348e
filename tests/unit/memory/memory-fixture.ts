import { CosineRetrievalIndex, MemoryService } from "../../../core/memory/index.js";
import type { RetrievalIndex } from "../../../core/memory/index.js";
import type { MemoryServiceOptions } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";

/** The instant every memory test starts at. */
export const T0 = "2026-11-21T10:00:00.000Z";
export const HOUR = 3_600_000;

/** Predictable UUIDs: 00000000-0000-4000-8000-000000000001, …02, … */
export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}

/**
 * A MemoryService over the in-memory fakes with a manual clock at {@link T0}, initialised.
 * Warnings are collected in `warnings`. The index ranks by cosine alone unless told otherwise,
 * so tests can pin similarities with {@link vectorAt}.
 */
export async function memoryFixture(
  options: Partial<MemoryServiceOptions> = {},
  store: InMemoryVectorStore = new InMemoryVectorStore(),
  index: RetrievalIndex | "default" = new CosineRetrievalIndex(),
) {
  const embedder = new FakeEmbedder({ dimensions: 8 });
  const clock = new ManualClock(T0);
  const warnings: { message: string; cause: unknown }[] = [];
  const service = new MemoryService({
    store,
    embedder,
    clock,
    newId: sequentialIds(),
    ...(index === "default" ? {} : { index }),
    options: { onWarning: (message, cause) => warnings.push({ message, cause }), ...options },
  });
  await service.init();
  return { service, store, embedder, clock, warnings };
}

/** A unit vector of length 8 at `angle` radians from [1, 0, …]: cosine = cos(angle difference). */
export function vectorAt(similarity: number): number[] {
  return [similarity, Math.sqrt(Math.max(0, 1 - similarity * similarity)), 0, 0, 0, 0, 0, 0];
}

/** The query vector that {@link vectorAt} similarities are measured against. */
export const QUERY_VECTOR = [1, 0, 0, 0, 0, 0, 0, 0];
