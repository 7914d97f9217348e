import { describe, expect, it } from "vitest";
import { memoryFixture, QUERY_VECTOR, vectorAt } from "./memory-fixture.js";

async function seeded() {
  const fixture = await memoryFixture();
  const { embedder, service } = fixture;
  embedder.setVector("q", QUERY_VECTOR);
  const items = [
    {
      content: "rule a",
      type: "rule" as const,
      scope: "permanent" as const,
      tags: ["ops"],
      s: 0.9,
    },
    {
      content: "fact b",
      type: "fact" as const,
      scope: "project" as const,
      tags: ["ops", "db"],
      project: "p",
      s: 0.6,
    },
    { content: "fact c", type: "fact" as const, scope: "session" as const, tags: [], s: 0.2 },
  ];
  for (const { s, ...item } of items) {
    embedder.setVector(item.content, vectorAt(s));
    await service.remember(item);
  }
  return fixture;
}

describe("search and recall filters", () => {
  it("filter search by type, scope and every tag", async () => {
    const { service } = await seeded();
    const contents = async (body: object) =>
      (await service.search({ message: "q", ...body })).results.map((r) => r.memory.content);
    expect(await contents({ type: "fact" })).toEqual(["fact b", "fact c"]);
    expect(await contents({ scope: "permanent" })).toEqual(["rule a"]);
    expect(await contents({ tags: ["ops", "db"] })).toEqual(["fact b"]);
    expect(await contents({ type: "rule", tags: ["db"] })).toEqual([]);
  });

  it("drop results under min_score", async () => {
    const { service } = await seeded();
    const all = await service.search({ message: "q" });
    const threshold = all.results[1]?.score ?? 0;
    const kept = await service.search({ message: "q", min_score: threshold });
    expect(kept.results.map((r) => r.memory.content)).toEqual(["rule a", "fact b"]);
    expect(kept.results.every((r) => r.score >= threshold)).toBe(true);
  });

  it("keep the seed's result shape unless include asks for tags or project", async () => {
    const { service } = await seeded();
    const [plain] = (await service.search({ message: "q", limit: 1 })).results;
    expect(Object.keys(plain?.memory ?? {}).sort()).toEqual([
      "confidence",
      "content",
      "id",
      "scope",
      "type",
    ]);
    const [rich] = (
      await service.search({ message: "q", type: "fact", limit: 1, include: ["tags", "project"] })
    ).results;
    expect(rich?.memory).toMatchObject({ content: "fact b", tags: ["ops", "db"], project: "p" });
    await expect(
      service.search({ message: "q", include: ["vector" as never] }),
    ).rejects.toMatchObject({
      message: 'include[0]: expected an array of "tags", "project", got "vector"',
    });
  });

  it("narrow recall's candidates the same way", async () => {
    const { service } = await seeded();
    const rules = await service.recall({ message: "q", type: "rule" });
    expect(rules.context).toBe("--- Relevant Memories ---\n[rule] rule a\n");
    const tagged = await service.recall({ message: "q", tags: ["db"] });
    expect(tagged.memory_count).toBe(1);
    const none = await service.recall({ message: "q", min_score: 1, scope: "session" });
    expect(none).toEqual({ context: "", memory_count: 0, tokens_used: 0 });
  });
});
