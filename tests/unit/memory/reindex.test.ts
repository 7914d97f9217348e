import { describe, expect, it } from "vitest";
import { reindexStore } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore } from "../../../core/testing/index.js";
import { memoryFixture } from "./memory-fixture.js";

describe("reindexStore", () => {
  // Heavy: every record re-embedded into a new store. Took 0.4 s and 1.6 s in two runs of the unit
  // project on 2 shared cores with two busy loops running.
  it("copies every record with its document and metadata and a vector of the new embedder", async () => {
    const source = new InMemoryVectorStore();
    const { service } = await memoryFixture({}, source);
    const ids: string[] = [];
    for (const [from, count] of [
      [0, 1000],
      [1000, 203],
    ] as const) {
      const { memories } = await service.rememberBatch({
        memories: Array.from({ length: count }, (_, i) => ({
          content: `note ${from + i}`,
          tags: [`t${from + i}`],
        })),
      });
      ids.push(...memories.map((m) => m.id));
    }
    const target = new InMemoryVectorStore();
    const embedder = new FakeEmbedder({ dimensions: 5, id: "next" });
    const progress: number[] = [];
    const copied = await reindexStore({
      source,
      target,
      embedder,
      onProgress: ({ copied: n, total }) => {
        expect(total).toBe(1203);
        progress.push(n);
      },
    });
    expect(copied).toBe(1203);
    expect(progress).toEqual([500, 1000, 1203]);
    expect(await target.get(ids)).toEqual(await source.get(ids));
    const { records } = await target.scan(undefined, 1);
    expect(records[0]?.vector).toEqual(await embedder.embedQuery(records[0]?.document ?? ""));
    // The target is bound to the new embedder: the old one is refused there.
    await expect(memoryFixture({}, target)).rejects.toMatchObject({ code: "embedder_mismatch" });
  }, 30_000);
});
