import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../core/errors.js";
import { DEFAULT_RECALL_WEIGHTS } from "../../../core/memory/index.js";
import type { Metadata } from "../../../core/ports/index.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { estimateTokens } from "../../../core/tokens/index.js";
import { HOUR, memoryFixture, QUERY_VECTOR, T0, vectorAt } from "./memory-fixture.js";

const T0_MS = Date.parse(T0);
const HEADER = "--- Relevant Memories ---\n";

/** Pins the query "q" and each content to a vector of the given similarity to it. */
function pin(
  fixture: Awaited<ReturnType<typeof memoryFixture>>,
  similarities: Record<string, number>,
) {
  fixture.embedder.setVector("q", QUERY_VECTOR);
  for (const [content, similarity] of Object.entries(similarities)) {
    fixture.embedder.setVector(content, vectorAt(similarity));
  }
}

describe("recall ranking", () => {
  it("orders by the gated score, not by similarity alone", async () => {
    const fixture = await memoryFixture();
    const { service } = fixture;
    pin(fixture, { "rule A": 0.68, "preference B": 0.7, "fact C": 0.69 });
    await service.remember({ content: "preference B", type: "preference" });
    await service.remember({ content: "fact C", type: "fact" });
    await service.remember({ content: "rule A", type: "rule" });
    // Score = r · (0.5 + boosts); boosts (recency 1, frequency 0, scope 0.667, confidence 1):
    // rule 0.38335, fact 0.35, preference 0.33005 → rule A 0.6007, fact C 0.5865, preference B 0.5810.
    const result = await service.recall({ message: "q" });
    expect(result.context).toBe(
      `${HEADER}[rule] rule A\n[fact] fact C\n[preference] preference B\n`,
    );
    expect(result.memory_count).toBe(3);
    expect(result.tokens_used).toBe(estimateTokens(result.context));
    // Search ignores the re-ranking: pure similarity order.
    const search = await service.search({ message: "q" });
    expect(search.results.map((r) => r.memory.content)).toEqual([
      "preference B",
      "fact C",
      "rule A",
    ]);
  });

  it("never lets recency, type or use lift a memory below the floor into the context (issue 22)", async () => {
    const fixture = await memoryFixture();
    const { service } = fixture;
    pin(fixture, { "runbook: roll back with kubectl rollout undo": 0.62, "working note 12": 0.25 });
    await service.remember({
      content: "runbook: roll back with kubectl rollout undo",
      type: "procedure",
    });
    const note = await service.remember({
      content: "working note 12",
      type: "rule",
      scope: "permanent",
    });
    for (let i = 0; i < 20; i += 1) await service.recall({ message: "q", min_score: 0 });
    const result = await service.recall({ message: "q" });
    expect(result.context).toBe(
      `${HEADER}[procedure] runbook: roll back with kubectl rollout undo\n`,
    );
    // The request's floor replaces the default one.
    const loose = await service.recall({ message: "q", min_score: 0.2, items: true });
    expect(loose.items?.map((i) => i.id)).toContain(note.id);
  });

  it("lets recency, frequency and confidence reorder equally similar memories", async () => {
    const fixture = await memoryFixture();
    const { service, clock } = fixture;
    pin(fixture, { old: 0.8, confident: 0.8, plain: 0.8 });
    await service.remember({ content: "old", scope: "permanent" });
    clock.set(T0_MS + 168 * HOUR);
    await service.remember({ content: "plain", scope: "permanent", confidence: 0.9 });
    await service.remember({ content: "confident", scope: "permanent", confidence: 1 });
    // old: recency 0.5 → 0.075 less than the others; confident beats plain by 0.1 × 0.1.
    const result = await service.recall({ message: "q" });
    expect(result.context).toBe(`${HEADER}[fact] confident\n[fact] plain\n[fact] old\n`);
  });

  it("uses configured weights", async () => {
    const weights = { ...DEFAULT_RECALL_WEIGHTS, similarity: 0.1, type: 0.5 };
    const fixture = await memoryFixture({ weights });
    const { service } = fixture;
    pin(fixture, { close: 0.9, rule: 0.7 });
    await service.remember({ content: "close", type: "preference" });
    await service.remember({ content: "rule", type: "rule" });
    // rule 0.7 · (0.1 + 0.15 + 0.5 + 0.0333 + 0.1) = 0.618; close 0.9 · 0.6168 = 0.555.
    expect((await service.recall({ message: "q" })).context).toBe(
      `${HEADER}[rule] rule\n[preference] close\n`,
    );
    // With the default weights the closer memory wins.
    const defaults = await memoryFixture();
    pin(defaults, { close: 0.9, rule: 0.7 });
    await defaults.service.remember({ content: "close", type: "preference" });
    await defaults.service.remember({ content: "rule", type: "rule" });
    expect((await defaults.service.recall({ message: "q" })).context).toBe(
      `${HEADER}[preference] close\n[rule] rule\n`,
    );
  });

  it("re-ranks only the configured number of most similar candidates", async () => {
    const fixture = await memoryFixture({ recallCandidates: 2 });
    const { service } = fixture;
    pin(fixture, { a: 0.9, b: 0.8, "low rule": 0.3 });
    for (const content of ["a", "b"]) await service.remember({ content, type: "preference" });
    await service.remember({ content: "low rule", type: "rule" });
    const result = await service.recall({ message: "q" });
    expect(result.memory_count).toBe(2);
    expect(result.context).not.toContain("low rule");
  });
});

describe("recall budget", () => {
  it("answers an empty context with zero counts when nothing is stored", async () => {
    const { service } = await memoryFixture();
    expect(await service.recall({ message: "anything" })).toEqual({
      context: "",
      memory_count: 0,
      tokens_used: 0,
    });
  });

  it("answers an empty context when not even the best memory fits the budget", async () => {
    const { service } = await memoryFixture();
    await service.remember({ content: "Deploys run on Fridays" });
    expect(await service.recall({ message: "deploys", budget: 5 })).toEqual({
      context: "",
      memory_count: 0,
      tokens_used: 0,
    });
  });

  it("skips a memory that does not fit and still packs a smaller, lower-ranked one", async () => {
    const fixture = await memoryFixture();
    const { service } = fixture;
    const long = `long ${"word ".repeat(60)}end`;
    pin(fixture, { short: 0.5, [long]: 0.9, tiny: 0.4 });
    await service.remember({ content: long });
    await service.remember({ content: "short" });
    await service.remember({ content: "tiny" });
    const result = await service.recall({ message: "q", budget: 20, min_score: 0 });
    expect(result.context).toBe(`${HEADER}[fact] short\n[fact] tiny\n`);
    expect(result.memory_count).toBe(2);
    expect(result.tokens_used).toBe(estimateTokens(result.context));
    expect(result.tokens_used).toBeLessThanOrEqual(20);
  });

  it("never exceeds any budget and counts the header in tokens_used", async () => {
    const { service } = await memoryFixture();
    for (let i = 0; i < 30; i++) {
      await service.remember({ content: `memory number ${i} ${"about deploys ".repeat(i % 7)}` });
    }
    for (const budget of [1, 8, 9, 10, 11, 15, 40, 100, 333, 2000]) {
      const result = await service.recall({ message: "deploys memory", budget });
      expect(result.tokens_used).toBeLessThanOrEqual(budget);
      expect(result.tokens_used).toBe(estimateTokens(result.context));
      const lines = result.context === "" ? 0 : result.context.split("\n").length - 2;
      expect(lines).toBe(result.memory_count);
    }
  });

  it("writes multi-line content on one line", async () => {
    const { service } = await memoryFixture();
    await service.remember({ content: "step one\nstep two", type: "procedure" });
    expect((await service.recall({ message: "step" })).context).toBe(
      `${HEADER}[procedure] step one step two\n`,
    );
  });
});

describe("recall project filter", () => {
  async function projects() {
    const fixture = await memoryFixture();
    const { service } = fixture;
    await service.remember({ content: "billing rule", scope: "project", project: "billing" });
    await service.remember({ content: "billing note", scope: "session", project: "billing" });
    await service.remember({ content: "search rule", scope: "project", project: "search" });
    await service.remember({ content: "global rule", scope: "permanent", project: "search" });
    await service.remember({ content: "loose rule", scope: "session" });
    return fixture;
  }

  it("takes the project's memories and permanent ones when a project is given", async () => {
    const { service } = await projects();
    const { context } = await service.recall({ message: "rule note", project: "billing" });
    expect(context.split("\n").slice(1, -1).sort()).toEqual([
      "[fact] billing note",
      "[fact] billing rule",
      "[fact] global rule",
    ]);
    const found = await service.search({ message: "rule note", project: "billing" });
    expect(found.results.map((r) => r.memory.content).sort()).toEqual([
      "billing note",
      "billing rule",
      "global rule",
    ]);
  });

  it("takes every memory when no project (or an empty one) is given", async () => {
    const { service } = await projects();
    expect((await service.recall({ message: "rule note" })).memory_count).toBe(5);
    expect((await service.recall({ message: "rule note", project: "" })).memory_count).toBe(5);
    expect((await service.search({ message: "rule note" })).results).toHaveLength(5);
  });

  it("ranks the requested project's memory above an equally similar permanent one", async () => {
    const fixture = await memoryFixture();
    const { service } = fixture;
    pin(fixture, { mine: 0.8, global: 0.8 });
    await service.remember({ content: "global", scope: "permanent" });
    await service.remember({ content: "mine", scope: "project", project: "p" });
    expect((await service.recall({ message: "q", project: "p" })).context).toBe(
      `${HEADER}[fact] mine\n[fact] global\n`,
    );
  });
});

describe("recall access updates", () => {
  it("updates last_accessed and access_count of the returned memories only", async () => {
    const fixture = await memoryFixture();
    const { service, clock } = fixture;
    const big = `big ${"filler ".repeat(80)}`;
    pin(fixture, { small: 0.5, [big]: 0.9 });
    const small = await service.remember({ content: "small", scope: "permanent" });
    const skipped = await service.remember({ content: big, scope: "permanent" });
    clock.set(T0_MS + 3 * HOUR);
    expect((await service.recall({ message: "q", budget: 20 })).memory_count).toBe(1);
    expect(await service.get(small.id)).toMatchObject({
      access_count: 1,
      last_accessed: new Date(T0_MS + 3 * HOUR).toISOString(),
      updated_at: T0,
    });
    expect(await service.get(skipped.id)).toMatchObject({ access_count: 0, last_accessed: T0 });
  });

  it("counts every one of 20 concurrent recalls", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => service.recall({ message: "deploys" })),
    );
    expect(results.every((r) => r.memory_count === 1)).toBe(true);
    expect((await service.get(id)).access_count).toBe(20);
  });

  it("does not count get or search as accesses", async () => {
    const { service } = await memoryFixture();
    const { id } = await service.remember({ content: "x" });
    await service.get(id);
    await service.search({ message: "x" });
    expect((await service.get(id)).access_count).toBe(0);
  });

  it("still answers when the access update fails, and reports a warning", async () => {
    class FailingUpdates extends InMemoryVectorStore {
      override async updateMetadata(
        _updates: readonly { id: string; metadata: Metadata }[],
      ): Promise<void> {
        throw new AgentServicesError("store_unavailable", "vector store unavailable");
      }
    }
    const { service, warnings } = await memoryFixture({}, new FailingUpdates());
    const { id } = await service.remember({ content: "Deploys run on Fridays" });
    const result = await service.recall({ message: "deploys" });
    expect(result.memory_count).toBe(1);
    await service.flushAccessUpdates();
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) {
      expect(warning).toEqual({
        message: `failed to update access metadata of memory ${id}`,
        cause: expect.objectContaining({ code: "store_unavailable" }) as unknown,
      });
    }
    // Counted in process all the same; the store has not learnt it.
    expect((await service.get(id)).access_count).toBe(1);
  });

  it("skips a stored record it cannot read at startup, with a warning, and serves the others", async () => {
    const store = new InMemoryVectorStore();
    const { service: first } = await memoryFixture({}, store);
    await first.remember({ content: "good deploy note" });
    await store.upsert([
      {
        id: "foreign",
        vector: [1, 0, 0, 0, 0, 0, 0, 0],
        document: "deploy note from elsewhere",
        metadata: { expires_at_ms: Number.MAX_SAFE_INTEGER },
      },
    ]);
    const { service, warnings } = await memoryFixture({}, store);
    const result = await service.recall({ message: "deploy note" });
    expect(result.memory_count).toBe(1);
    expect(warnings.map((w) => w.message)).toEqual([
      "skipped memory record foreign: it cannot be read",
    ]);
  });
});

describe("recall failures", () => {
  it("fails with embedder_failed when the embedder is down", async () => {
    const { service, embedder } = await memoryFixture();
    embedder.failWith(new Error("connection refused"));
    await expect(service.recall({ message: "x" })).rejects.toMatchObject({
      code: "embedder_failed",
    });
  });

  it("keeps answering from the engine while the store is down (writes fail)", async () => {
    const { service, store } = await memoryFixture();
    await service.remember({ content: "Deploys run on Fridays" });
    store.failWith(new Error("connection refused"));
    expect((await service.recall({ message: "deploys" })).memory_count).toBe(1);
    await expect(service.remember({ content: "new note" })).rejects.toMatchObject({
      code: "store_unavailable",
    });
  });
});
