import { describe, expect, it } from "vitest";
import type { MemoryScope, MemoryType } from "../../../core/memory/index.js";
import { HOUR, T0, memoryFixture, vectorAt } from "./memory-fixture.js";

/**
 * Issue 22: recall's context neighbours. A recalled episode can bring the episodes written just
 * before and after it (same project and scope, within an hour): the turns of its conversation.
 * Every text is pinned orthogonal to the query, so only the anchor's words make it relevant.
 */
const QUERY = "where did Caroline go hiking";
const ANCHOR = "Caroline: I went hiking last weekend";
const TURNS = [
  "Melanie: how was your week?",
  "Caroline: busy, but good",
  "Melanie: did you do anything fun?",
  ANCHOR,
  "Melanie: oh nice, where?",
  "Caroline: up at the lake trail near Tahoe",
  "Melanie: I love that place",
];

async function conversation(
  options: { recallContextNeighbours?: number } = {},
  turns: readonly string[] = TURNS,
  extra: { type?: MemoryType; scope?: MemoryScope; project?: string } = {},
) {
  const fixture = await memoryFixture(options, undefined, "default");
  fixture.embedder.setVector(QUERY, vectorAt(1));
  for (const content of turns) fixture.embedder.setVector(content, vectorAt(0));
  await fixture.service.rememberBatch({
    memories: turns.map((content) => ({ content, type: "episode" as const, ...extra })),
  });
  return fixture;
}

const lines = (context: string) => context.split("\n").filter((l) => l.startsWith("["));

describe("recall's context neighbours", () => {
  it("adds the two turns each side of a recalled episode after it, in the order written", async () => {
    const { service } = await conversation();
    const answer = await service.recall({ message: QUERY, context_neighbours: 2, items: true });
    expect(lines(answer.context)).toEqual(
      [ANCHOR, ...TURNS.slice(1, 3), ...TURNS.slice(4, 6)].map((t) => `[episode] ${t}`),
    );
    expect(answer.memory_count).toBe(5);
    const anchorId = answer.items?.[0]?.id;
    expect(answer.items?.slice(1).map((item) => item.context_of)).toEqual(Array(4).fill(anchorId));
    expect(answer.items?.[0]?.context_of).toBeUndefined();
  });

  it("adds none by default, and the seed's answer has no items", async () => {
    const { service } = await conversation();
    const answer = await service.recall({ message: QUERY });
    expect(lines(answer.context)).toEqual([`[episode] ${ANCHOR}`]);
    expect(answer).not.toHaveProperty("items");
  });

  it("takes the configured default unless the request names a min_score or its own count", async () => {
    const { service } = await conversation({ recallContextNeighbours: 1 });
    expect(lines((await service.recall({ message: QUERY })).context)).toHaveLength(3);
    expect(lines((await service.recall({ message: QUERY, min_score: 0.01 })).context)).toEqual([
      `[episode] ${ANCHOR}`,
    ]);
    const asked = await service.recall({ message: QUERY, min_score: 0.01, context_neighbours: 3 });
    expect(lines(asked.context)).toHaveLength(7);
    const off = await service.recall({ message: QUERY, context_neighbours: 0 });
    expect(lines(off.context)).toHaveLength(1);
  });

  it("adds only episodes: facts written around a recalled episode stay out", async () => {
    const { service, embedder } = await conversation({}, [ANCHOR]);
    const fact = "The lake trail is closed in winter";
    embedder.setVector(fact, vectorAt(0));
    await service.remember({ content: fact, type: "fact" });
    const answer = await service.recall({ message: QUERY, context_neighbours: 2 });
    expect(lines(answer.context)).toEqual([`[episode] ${ANCHOR}`]);
  });

  it("adds no episode written more than an hour away, nor one of another project or scope", async () => {
    const { service, embedder, clock } = await conversation({}, [ANCHOR], { project: "trips" });
    const late = "Melanie: see you next week";
    const elsewhere = "Melanie: the build is green";
    for (const t of [late, elsewhere]) embedder.setVector(t, vectorAt(0));
    await service.remember({ content: elsewhere, type: "episode", project: "ci" });
    await service.remember({ content: elsewhere, type: "episode", project: "trips", scope: "ttl" });
    clock.set(new Date(Date.parse(T0) + 2 * HOUR));
    await service.remember({ content: late, type: "episode", project: "trips" });
    const answer = await service.recall({
      message: QUERY,
      project: "trips",
      context_neighbours: 3,
    });
    expect(lines(answer.context)).toEqual([`[episode] ${ANCHOR}`]);
  });

  it("never lets a neighbour push a recalled memory out of a small budget", async () => {
    const { service } = await conversation();
    const alone = await service.recall({ message: QUERY });
    const budget = alone.tokens_used + 12;
    const around = await service.recall({ message: QUERY, budget, context_neighbours: 2 });
    expect(lines(around.context)[0]).toBe(`[episode] ${ANCHOR}`);
    expect(around.memory_count).toBeGreaterThan(1);
    expect(around.memory_count).toBeLessThan(5);
    expect(around.tokens_used).toBeLessThanOrEqual(budget);
  });
});
