import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { MemoryEngine, memoryStatsSchema } from "../../../core/memory/index.js";
import { CosineRetrievalIndex, type Memory } from "../../../core/memory/index.js";
import { memoryFixture } from "./memory-fixture.js";

/** Four memories over two projects and three tags, one of them a ttl memory that expires. */
async function seeded() {
  const fixture = await memoryFixture();
  const { service } = fixture;
  await service.remember({
    content: "deploy on Fridays",
    type: "rule",
    project: "billing-api",
    tags: ["ops", "deploy"],
  });
  await service.remember({
    content: "invoices are monthly",
    project: "billing-api",
    tags: ["ops"],
  });
  await service.remember({
    content: "rotate keys",
    type: "procedure",
    scope: "permanent",
    tags: ["security", "ops"],
  });
  await service.remember({
    content: "deploy freeze",
    scope: "ttl",
    ttl_seconds: 60,
    project: "shop",
    tags: ["deploy"],
  });
  return fixture;
}

describe("stats with filters and top (issue 24: counts that follow the filters)", () => {
  it("answers the seed's shape, and nothing more, without filters or top", async () => {
    const { service } = await seeded();
    const stats = await service.stats();
    expect(Object.keys(stats)).toEqual(["total_memories", "by_type", "by_scope"]);
    expect(stats.total_memories).toBe(4);
  });

  it("counts only the memories passing every filter given", async () => {
    const { service } = await seeded();
    const stats = await service.stats({ project: "billing-api", tags: ["ops"] });
    expect(stats).toEqual({
      total_memories: 2,
      by_type: { rule: 1, fact: 1, episode: 0, procedure: 0, preference: 0 },
      by_scope: { permanent: 0, project: 0, session: 2, ttl: 0 },
    });
    expect((await service.stats({ q: "DEPLOY" })).total_memories).toBe(2);
    expect((await service.stats({ type: "procedure" })).by_scope.permanent).toBe(1);
  });

  it("adds the most frequent projects and tags with top, the rest summed in other", async () => {
    const { service } = await seeded();
    const stats = await service.stats({ top: 2 });
    expect(stats.by_project).toEqual({
      values: [
        { value: "billing-api", count: 2 },
        { value: "", count: 1 },
      ],
      other: 1,
      distinct: 3,
    });
    expect(stats.by_tag).toEqual({
      values: [
        { value: "ops", count: 3 },
        { value: "deploy", count: 2 },
      ],
      other: 1,
      distinct: 3,
    });
    expect(v.is(memoryStatsSchema, stats)).toBe(true);
  });

  it("counts projects and tags of the filtered memories only", async () => {
    const { service } = await seeded();
    const stats = await service.stats({ tags: ["deploy"], top: 10 });
    expect(stats.by_project?.values).toEqual([
      { value: "billing-api", count: 1 },
      { value: "shop", count: 1 },
    ]);
    expect(stats.by_tag?.values).toEqual([
      { value: "deploy", count: 2 },
      { value: "ops", count: 1 },
    ]);
  });

  it("stops counting a memory once it has expired, filtered or not", async () => {
    const { service, clock } = await seeded();
    expect((await service.stats({ top: 5 })).by_project?.distinct).toBe(3);
    clock.advance(60_000);
    const stats = await service.stats({ top: 5 });
    expect(stats.total_memories).toBe(3);
    expect(stats.by_project?.values.map((p) => p.value)).toEqual(["billing-api", ""]);
    expect((await service.stats({ project: "shop" })).total_memories).toBe(0);
  });

  it("follows an update of a memory's project and tags", async () => {
    const { service } = await seeded();
    expect((await service.stats({ top: 5 })).by_tag?.distinct).toBe(3);
    const { id } = await service.remember({ content: "new one", project: "shop" });
    await service.update(id, { project: "crm", tags: ["sales"] });
    const stats = await service.stats({ top: 5 });
    expect(stats.by_project?.values).toContainEqual({ value: "crm", count: 1 });
    expect(stats.by_tag?.values).toContainEqual({ value: "sales", count: 1 });
  });

  it("answers from the engine, never reading the store", async () => {
    const { service, store } = await seeded();
    const reads = [vi.spyOn(store, "get"), vi.spyOn(store, "scan"), vi.spyOn(store, "count")];
    await service.stats({ top: 3 });
    await service.stats({ project: "billing-api", q: "deploy", top: 3 });
    for (const read of reads) expect(read).not.toHaveBeenCalled();
  });

  it.each([
    [{ top: 0 }, "top: expected an integer between 1 and 1000"],
    [{ top: 1001 }, "top: expected an integer between 1 and 1000"],
    [{ type: "note" }, "type: expected one of"],
    [{ created_after: "yesterday" }, "created_after: expected an ISO 8601"],
    [{ projct: "x" }, "projct"],
  ])("refuses %j naming the field", async (input, message) => {
    const { service } = await seeded();
    await expect(service.stats(input as never)).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining(message) as unknown,
    });
  });
});

const OPTIONS = { ttlHours: 24, sessionIdleHours: 24 };
const T = Date.parse("2026-11-21T10:00:00.000Z");

function permanent(id: number, tags: string[]): Memory {
  const at = new Date(T).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
    content: `memory ${id}`,
    type: "fact",
    scope: "permanent",
    tags,
    project: "p",
    confidence: 1,
    created_at: at,
    updated_at: at,
    last_accessed: at,
    access_count: 0,
    expires_at: null,
  };
}

describe("MemoryEngine.counts", () => {
  it("remembers the unfiltered counts between changes and counts again after one", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), OPTIONS);
    const memory = permanent(1, ["x"]);
    engine.add(memory, "h", [1, 0]);
    const first = engine.counts(T);
    expect(engine.counts(T + 1)).toBe(first);
    engine.update({ ...memory, tags: ["y"] });
    const second = engine.counts(T + 1);
    expect(second.byTag).toEqual([["y", 1]]);
  });

  it("counts a tag stored twice on one memory once", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), OPTIONS);
    engine.add(permanent(1, ["x", "x"]), "h", [1, 0]);
    expect(engine.counts(T, () => true).byTag).toEqual([["x", 1]]);
    expect(engine.counts(T).byTag).toEqual([["x", 1]]);
  });

  it("orders values by count, then by value", () => {
    const engine = new MemoryEngine(new CosineRetrievalIndex(), OPTIONS);
    engine.add(permanent(1, ["b", "a"]), "h1", [1, 0]);
    engine.add(permanent(2, ["c"]), "h2", [1, 0]);
    engine.add(permanent(3, ["c"]), "h3", [1, 0]);
    expect(engine.counts(T).byTag).toEqual([
      ["c", 2],
      ["a", 1],
      ["b", 1],
    ]);
  });
});
