import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  memorySchema,
  memoryStatsSchema,
  recallResultSchema,
  searchResultSchema,
} from "../../../core/memory/index.js";
import { memoryFixture, QUERY_VECTOR, vectorAt } from "./memory-fixture.js";

describe("search", () => {
  it("returns the memory subset and the index's relevance as score, most relevant first", async () => {
    const fixture = await memoryFixture();
    const { service, embedder } = fixture;
    embedder.setVector("q", QUERY_VECTOR);
    embedder.setVector("near", vectorAt(0.9));
    embedder.setVector("opposite", vectorAt(-0.5));
    const near = await service.remember({ content: "near", type: "rule", confidence: 0.4 });
    const opposite = await service.remember({ content: "opposite" });
    const { results } = await service.search({ message: "q" });
    expect(results).toHaveLength(2);
    expect(results[0]?.memory).toEqual({
      id: near.id,
      content: "near",
      type: "rule",
      scope: "session",
      confidence: 0.4,
    });
    expect(results[0]?.score).toBeCloseTo(0.9, 6); // float32 vectors in the index
    // The cosine index's relevance is the similarity clamped to [0, 1].
    expect(results[1]?.memory.id).toBe(opposite.id);
    expect(results[1]?.score).toBe(0);
    expect(v.is(searchResultSchema, { results })).toBe(true);
  });

  it("returns at most limit results", async () => {
    const { service } = await memoryFixture();
    for (let i = 0; i < 15; i++) await service.remember({ content: `note ${i}` });
    expect((await service.search({ message: "note" })).results).toHaveLength(10);
    expect((await service.search({ message: "note", limit: 3 })).results).toHaveLength(3);
    expect((await service.search({ message: "note", limit: 1000 })).results).toHaveLength(15);
  });

  it("does not update access metadata", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "note" });
    await service.search({ message: "note" });
    expect(await service.get(id)).toMatchObject({ access_count: 0 });
  });

  it("answers an empty list when nothing is stored", async () => {
    const { service } = await memoryFixture();
    expect(await service.search({ message: "anything" })).toEqual({ results: [] });
  });
});

describe("stats", () => {
  it("lists every type and scope with zeros when the store is empty", async () => {
    const { service } = await memoryFixture();
    expect(await service.stats()).toEqual({
      total_memories: 0,
      by_type: { rule: 0, fact: 0, episode: 0, procedure: 0, preference: 0 },
      by_scope: { permanent: 0, project: 0, session: 0, ttl: 0 },
    });
  });

  it("counts live memories by type and scope, zeros kept", async () => {
    const { service, clock } = await memoryFixture();
    await service.remember({ content: "a", type: "rule", scope: "permanent" });
    await service.remember({ content: "b", type: "rule", scope: "project", project: "p" });
    await service.remember({ content: "c", type: "episode" });
    await service.remember({ content: "d", type: "fact", scope: "ttl", ttl_seconds: 10 });
    const stats = await service.stats();
    expect(stats).toEqual({
      total_memories: 4,
      by_type: { rule: 2, fact: 1, episode: 1, procedure: 0, preference: 0 },
      by_scope: { permanent: 1, project: 1, session: 1, ttl: 1 },
    });
    expect(v.is(memoryStatsSchema, stats)).toBe(true);
    clock.advance(10_000);
    expect(await service.stats()).toEqual({
      total_memories: 3,
      by_type: { rule: 2, fact: 0, episode: 1, procedure: 0, preference: 0 },
      by_scope: { permanent: 1, project: 1, session: 1, ttl: 0 },
    });
  });
});

describe("get and delete", () => {
  it("returns a full memory that matches the response schema", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "x", tags: ["t"] });
    expect(v.is(memorySchema, await service.get(id))).toBe(true);
    const recall = await service.recall({ message: "x" });
    expect(v.is(recallResultSchema, recall)).toBe(true);
  });

  it("accepts an upper-case id for a stored memory", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "x" });
    expect((await service.get(id.toUpperCase())).id).toBe(id);
  });

  it("deletes a memory once; afterwards get and delete answer not_found", async () => {
    const { service, store } = await memoryFixture();
    const { id } = await service.remember({ content: "x" });
    expect(await service.delete(id)).toEqual({ deleted: true });
    expect(await store.count()).toBe(0);
    await expect(service.get(id)).rejects.toMatchObject({
      code: "not_found",
      message: `memory ${id} not found`,
    });
    await expect(service.delete(id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("fails with embedder_failed on remember when the embedder is down, storing nothing", async () => {
    const { service, store, embedder } = await memoryFixture();
    embedder.failWith(new Error("503"));
    await expect(service.remember({ content: "x" })).rejects.toMatchObject({
      code: "embedder_failed",
    });
    expect(await store.count()).toBe(0);
  });
});

describe("search with the default (hybrid) index", () => {
  it("ranks the memory sharing the query's rare words first, with a calibrated relevance", async () => {
    const { service } = await memoryFixture({}, undefined, "default");
    for (const content of [
      "Caroline went to the charity race last weekend",
      "Caroline likes painting",
      "Caroline talked to Melanie about Caroline's plans",
      "Melanie went hiking",
    ]) {
      await service.remember({ content });
    }
    const { results } = await service.search({ message: "Who went to the charity race?" });
    expect(results[0]?.memory.content).toBe("Caroline went to the charity race last weekend");
    // Calibrated, not rescaled per query (issue 22): the best is not forced to 1.
    expect(results[0]?.score).toBeGreaterThan(0.5);
    expect(results[0]?.score).toBeLessThan(1);
    for (const r of results.slice(1)) expect(r.score).toBeLessThan(results[0]?.score ?? 0);
    for (const r of results) expect(r.score).toBeGreaterThanOrEqual(0);
  });
});
