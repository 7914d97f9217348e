import { describe, expect, it } from "vitest";
import { memoryFixture } from "./memory-fixture.js";

describe("delete by filter", () => {
  async function seeded() {
    const fixture = await memoryFixture();
    await fixture.service.rememberBatch({
      memories: [
        { content: "global rule", type: "rule", scope: "permanent" },
        { content: "billing one", project: "billing", scope: "project", tags: ["a"] },
        { content: "billing two", project: "billing", tags: ["a", "b"] },
        { content: "web one", project: "web" },
      ],
    });
    return fixture;
  }

  it("deletes a project's memories exactly, never the global rules", async () => {
    const { service, store } = await seeded();
    expect(await service.deleteMatching({ project: "billing" })).toEqual({ deleted: 2 });
    expect((await service.list()).memories.map((m) => m.content).sort()).toEqual([
      "global rule",
      "web one",
    ]);
    expect(await store.count()).toBe(2);
  });

  it("counts without deleting on dry_run", async () => {
    const { service } = await seeded();
    expect(await service.deleteMatching({ tags: ["a"], dry_run: true })).toEqual({
      deleted: 0,
      matched: 2,
    });
    expect((await service.list()).memories).toHaveLength(4);
  });

  it("requires a filter or all: true, and deletes everything with all", async () => {
    const { service } = await seeded();
    for (const body of [{}, { q: "" }, { tags: [] }, { dry_run: true }]) {
      await expect(service.deleteMatching(body)).rejects.toMatchObject({
        code: "invalid_input",
        message: expect.stringContaining('or "all": true') as unknown,
      });
    }
    expect(await service.deleteMatching({ all: true, dry_run: true })).toEqual({
      deleted: 0,
      matched: 4,
    });
    expect(await service.deleteMatching({ all: true })).toEqual({ deleted: 4 });
    expect((await service.stats()).total_memories).toBe(0);
  });

  it("combines filters: every one must hold", async () => {
    const { service } = await seeded();
    expect(await service.deleteMatching({ project: "billing", q: "two", type: "fact" })).toEqual({
      deleted: 1,
    });
  });
});
