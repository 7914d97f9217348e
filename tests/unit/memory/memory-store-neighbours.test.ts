import { describe, expect, it } from "vitest";
import { MemoryService, type SearchResult } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";
import { T0, vectorAt } from "./memory-fixture.js";

/**
 * Issue 22: the store-neighbour lift through the service's public calls. A search candidate with
 * words of the message of its own gets part of the relevance of the memories written just
 * before and after it in its project and scope. Every text is pinned orthogonal to the query,
 * so the semantic evidence is 0 and only words and neighbours count.
 */
const QUERY = "payments migration ledger";
const STRONG = "payments migration: freeze the payments writes first";
const NEXT = "then copy the ledger table";
const ALONE = "audit the ledger table";
const FILLERS = ["lunch is at noon", "the office closes at six", "coffee in the kitchen"];

/** Ids whose order is not the order they are handed out in (so id order cannot fake it). */
function scrambledIds(): () => string {
  let n = 0;
  return () => {
    n += 1;
    const scrambled = (n * 7919) % 10_007;
    return `00000000-0000-4000-8000-${String(scrambled).padStart(12, "0")}`;
  };
}

async function service(options: { neighbourLift?: number } = {}) {
  const embedder = new FakeEmbedder({ dimensions: 8 });
  embedder.setVector(QUERY, vectorAt(1));
  const clock = new ManualClock(T0);
  const svc = new MemoryService({
    store: new InMemoryVectorStore(),
    embedder,
    clock,
    newId: scrambledIds(),
    options,
  });
  await svc.init();
  return { svc, embedder, clock };
}

/** Remembers texts in one batch, in order, all pinned orthogonal to the query. */
async function write(
  { svc, embedder }: Awaited<ReturnType<typeof service>>,
  texts: readonly string[],
  extra: { project?: string; scope?: "permanent" | "session" } = {},
): Promise<string[]> {
  for (const text of texts) embedder.setVector(text, vectorAt(0));
  const { memories } = await svc.rememberBatch({
    memories: texts.map((content) => ({ content, scope: "permanent", ...extra })),
  });
  return memories.map((m) => m.id);
}

async function explained(
  svc: MemoryService,
  input: { project?: string } = {},
): Promise<SearchResult["results"]> {
  return (await svc.search({ message: QUERY, limit: 10, explain: true, ...input })).results;
}

const byContent = (results: SearchResult["results"], content: string) =>
  results.find((r) => r.memory.content === content);

describe("the store-neighbour lift", () => {
  it("lifts a memory with words of its own written next to a stronger hit above its twin written alone", async () => {
    const fixture = await service();
    await write(fixture, [STRONG, NEXT, ...FILLERS.slice(0, 2)]);
    await write(fixture, [FILLERS[2] as string, ALONE]);
    const results = await explained(fixture.svc);
    const next = byContent(results, NEXT);
    const alone = byContent(results, ALONE);
    expect(results[0]?.memory.content).toBe(STRONG);
    expect(next?.factors?.neighbour).toBeGreaterThan(0);
    expect(alone?.factors?.neighbour).toBe(0);
    expect(next?.score).toBeGreaterThan(alone?.score ?? 1);
    // The two have the same words: only the neighbour sets them apart.
    expect(next?.factors?.lexical).toBe(alone?.factors?.lexical);
  });

  it("ranks the twins alike when the lift is turned off", async () => {
    const fixture = await service({ neighbourLift: 0 });
    await write(fixture, [STRONG, NEXT, ...FILLERS.slice(0, 2)]);
    await write(fixture, [FILLERS[2] as string, ALONE]);
    const results = await explained(fixture.svc);
    expect(byContent(results, NEXT)?.score).toBe(byContent(results, ALONE)?.score);
    expect(byContent(results, NEXT)?.factors?.neighbour).toBe(0);
  });

  it("does not lift a memory with none of the message's words, however strong its neighbour", async () => {
    const fixture = await service();
    await write(fixture, [STRONG, "freeze them at noon sharp"]);
    const results = await explained(fixture.svc);
    expect(results.map((r) => r.memory.content)).toEqual([STRONG]);
  });

  it("does not lift across projects or scopes, even written in the same batch instant", async () => {
    const fixture = await service();
    await write(fixture, [STRONG], { project: "billing" });
    await write(fixture, [NEXT], { project: "search" });
    await write(fixture, [ALONE], { project: "billing", scope: "session" });
    const results = await explained(fixture.svc);
    expect(byContent(results, STRONG)).toBeDefined();
    expect(byContent(results, NEXT)?.factors?.neighbour).toBe(0);
    expect(byContent(results, ALONE)?.factors?.neighbour).toBe(0);
  });

  it("lends only between memories written within an hour of each other", async () => {
    const fixture = await service();
    await write(fixture, [STRONG]);
    fixture.clock.set(new Date(Date.parse(T0) + 30 * 60_000));
    await write(fixture, [NEXT]);
    fixture.clock.set(new Date(Date.parse(T0) + 150 * 60_000));
    await write(fixture, [ALONE]);
    const results = await explained(fixture.svc);
    // NEXT: 30 min after STRONG; ALONE: 2 h after NEXT, 2.5 h after STRONG.
    expect(byContent(results, NEXT)?.factors?.neighbour).toBeGreaterThan(0);
    expect(byContent(results, ALONE)?.factors?.neighbour).toBe(0);
  });

  it("stops counting a neighbour once it is deleted", async () => {
    const fixture = await service();
    const [strong] = await write(fixture, [STRONG, NEXT, ...FILLERS]);
    expect(byContent(await explained(fixture.svc), NEXT)?.factors?.neighbour).toBeGreaterThan(0);
    await fixture.svc.delete(strong as string);
    expect(byContent(await explained(fixture.svc), NEXT)?.factors?.neighbour).toBe(0);
  });

  it("keeps a memory's place among its neighbours when its content is updated", async () => {
    const fixture = await service();
    const [, next] = await write(fixture, [STRONG, NEXT, ...FILLERS]);
    fixture.embedder.setVector("then copy the ledger tables", vectorAt(0));
    await fixture.svc.update(next as string, { content: "then copy the ledger tables" });
    const updated = byContent(await explained(fixture.svc), "then copy the ledger tables");
    expect(updated?.factors?.neighbour).toBeGreaterThan(0);
  });

  it("keeps a batch's request order although every memory has the same instant and the ids are scrambled", async () => {
    // The strong hit in the middle: only its request-order neighbours (d = 1, 2) are lifted.
    const fixture = await service();
    const texts = ["ledger note 1", "ledger note 2", STRONG, "ledger note 3", "ledger note 4"];
    const far = ["ledger note 0", "ledger note 5"];
    await write(fixture, [far[0] as string, ...texts, far[1] as string]);
    const results = await explained(fixture.svc);
    const lift = (content: string) => byContent(results, content)?.factors?.neighbour ?? -1;
    expect(lift("ledger note 2")).toBeGreaterThan(lift("ledger note 1"));
    expect(lift("ledger note 3")).toBe(lift("ledger note 2"));
    expect(lift("ledger note 4")).toBe(lift("ledger note 1"));
    expect(lift("ledger note 1")).toBeGreaterThan(lift("ledger note 0"));
    expect(lift("ledger note 5")).toBe(lift("ledger note 0"));
  });

  it("keeps the lift within the calibrated scale: every score stays in [0, 1]", async () => {
    const fixture = await service({ neighbourLift: 1 });
    await write(fixture, [QUERY, `${QUERY} ${QUERY}`, QUERY.split(" ")[0] as string]);
    const results = await explained(fixture.svc);
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
  });
});
