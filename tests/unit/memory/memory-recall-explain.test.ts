import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../../core/tokens/index.js";
import { memoryFixture, QUERY_VECTOR, T0, vectorAt } from "./memory-fixture.js";

/**
 * Issue 22: `items` and `explain` on recall and search, through the service's public calls. The
 * default answers keep the seed's shape exactly; the options add fields and never change what is
 * chosen.
 */
async function fixtureWith(similarities: Record<string, number>) {
  // The default (hybrid, calibrated) index: the factors are the ones the service serves.
  const fixture = await memoryFixture({}, undefined, "default");
  fixture.embedder.setVector("deploy window", QUERY_VECTOR);
  for (const [content, similarity] of Object.entries(similarities)) {
    fixture.embedder.setVector(content, vectorAt(similarity));
  }
  return fixture;
}

const LONG = `deploy window notes: ${"the release train leaves on Friday afternoon ".repeat(12)}`;

describe("recall items and explain", () => {
  it("answers the seed's three fields when neither is asked for", async () => {
    const { service } = await fixtureWith({ "deploy window is Friday": 0.9 });
    await service.remember({ content: "deploy window is Friday", type: "rule" });
    const answer = await service.recall({ message: "deploy window" });
    expect(Object.keys(answer).sort()).toEqual(["context", "memory_count", "tokens_used"]);
  });

  it("lists the chosen memories as items in context order, without factors", async () => {
    const { service } = await fixtureWith({
      "deploy window is Friday": 0.9,
      "the deploy window closes at 16:00": 0.8,
    });
    const a = await service.remember({ content: "deploy window is Friday", type: "rule" });
    const b = await service.remember({
      content: "the deploy window closes at 16:00",
      type: "fact",
      scope: "permanent",
    });
    const answer = await service.recall({ message: "deploy window", items: true });
    expect(answer.items?.map((item) => item.id).sort()).toEqual([a.id, b.id].sort());
    expect(answer.items).toHaveLength(answer.memory_count);
    // Context order: each item's line appears in the context in the items' order.
    const positions = (answer.items ?? []).map((item) =>
      answer.context.indexOf(item.id === a.id ? "deploy window is Friday" : "closes at 16:00"),
    );
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    const fact = answer.items?.find((item) => item.id === b.id);
    expect(fact).toMatchObject({ type: "fact", scope: "permanent", created_at: T0 });
    expect(fact?.score).toBeGreaterThan(0);
    expect(fact?.score).toBeLessThanOrEqual(1);
    expect(fact).not.toHaveProperty("factors");
    expect(answer).not.toHaveProperty("explain");
  });

  it("explains each item's factors, the floor applied and what the budget cut", async () => {
    const { service } = await fixtureWith({ "deploy window is Friday": 0.9, [LONG]: 0.85 });
    const short = await service.remember({ content: "deploy window is Friday", type: "rule" });
    const long = await service.remember({ content: LONG, type: "episode" });
    const budget = estimateTokens("--- Relevant Memories ---\n[rule] deploy window is Friday\n");
    // A request's floor replaces the configured one (whose relative part would drop the long one).
    const asked = { message: "deploy window", budget, min_score: 0.01 };
    const plain = await service.recall(asked);
    const answer = await service.recall({ ...asked, explain: true });
    // Explaining changes nothing of what is chosen.
    expect(answer.context).toBe(plain.context);
    expect(answer.items?.map((item) => item.id)).toEqual([short.id]);
    const factors = answer.items?.[0]?.factors;
    for (const name of [
      "lexical",
      "semantic",
      "relevance",
      "recency",
      "frequency",
      "type",
      "scope",
      "confidence",
    ] as const) {
      expect(factors?.[name], name).toBeGreaterThanOrEqual(0);
      expect(factors?.[name], name).toBeLessThanOrEqual(1);
    }
    expect(factors?.lexical).toBeGreaterThan(0);
    expect(answer.explain?.candidates).toBe(2);
    expect(answer.explain?.below_min_score).toBe(0);
    expect(answer.explain?.min_score).toBe(0.01);
    const [cut] = answer.explain?.cut_by_budget ?? [];
    expect(cut?.id).toBe(long.id);
    expect(cut?.tokens).toBeGreaterThan(budget);
  });

  it("counts the candidates the floor dropped", async () => {
    const { service } = await fixtureWith({ "deploy window is Friday": 0.9 });
    await service.remember({ content: "deploy window is Friday", type: "rule" });
    const answer = await service.recall({ message: "deploy window", explain: true, min_score: 1 });
    expect(answer.memory_count).toBe(0);
    expect(answer.explain).toMatchObject({ min_score: 1, candidates: 1, below_min_score: 1 });
  });
});

describe("search explain", () => {
  it("adds each result's lexical, semantic and relevance factors only when asked", async () => {
    const { service } = await fixtureWith({ "deploy window is Friday": 0.9 });
    await service.remember({ content: "deploy window is Friday", type: "rule" });
    const plain = await service.search({ message: "deploy window" });
    expect(plain.results[0]).not.toHaveProperty("factors");
    const explained = await service.search({ message: "deploy window", explain: true });
    const [result] = explained.results;
    expect(result?.score).toBe(plain.results[0]?.score);
    expect(result?.factors?.relevance).toBe(result?.score);
    expect(result?.factors?.lexical).toBeGreaterThan(0);
  });
});
