import { randomUUID } from "node:crypto";
import { ChromaClient } from "chromadb";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ChromaVectorStore } from "../../adapters/chroma/chroma-vector-store.js";
import { HashingEmbedder } from "../../adapters/local/hashing-embedder.js";
import { SystemClock } from "../../adapters/system/system-clock.js";
import { MemoryService } from "../../core/memory/index.js";

const chromaUrl = inject("chromaUrl");
const collection = `engine-${randomUUID()}`;
const TOTAL = 10_000;
const WORDS = ["deploy", "billing", "cache", "index", "queue", "schema", "token", "vector"];

/** Distinct contents: each carries its own number, plus words shared with many others. */
function content(i: number): string {
  const a = WORDS[i % WORDS.length] as string;
  const b = WORDS[(i * 7) % WORDS.length] as string;
  return `note ${i} about the ${a} and the ${b} of service ${i % 97}`;
}

async function openService(): Promise<{ service: MemoryService; store: ChromaVectorStore }> {
  const store = new ChromaVectorStore({ url: chromaUrl, collection });
  const service = new MemoryService({
    store,
    embedder: new HashingEmbedder({ dimensions: 256 }),
    clock: new SystemClock(),
  });
  await service.init();
  return { service, store };
}

/** Every kept memory is the top hit of search and the first line of recall for its own text. */
async function expectEachFoundTopOne(service: MemoryService, kept: Map<string, string>) {
  const missedSearch: string[] = [];
  const missedRecall: string[] = [];
  for (const [id, text] of kept) {
    const { results } = await service.search({ message: text, limit: 1 });
    if (results[0]?.memory.id !== id) missedSearch.push(id);
    const { context } = await service.recall({ message: text, budget: 200 });
    if (context.split("\n")[1] !== `[fact] ${text}`) missedRecall.push(id);
  }
  expect(missedSearch).toEqual([]);
  expect(missedRecall).toEqual([]);
}

afterAll(async () => {
  const url = new URL(chromaUrl);
  await new ChromaClient({ host: url.hostname, port: Number(url.port) })
    .deleteCollection({ name: collection })
    .catch(() => undefined);
});

describe("the memory engine over a real Chroma (issue 7)", () => {
  it("finds every memory left after deleting 90% of 10,000 top-1 by its exact content, before and after a restart", async () => {
    const { service, store } = await openService();
    const ids: string[] = [];
    for (let start = 0; start < TOTAL; start += 1000) {
      const { memories } = await service.rememberBatch({
        memories: Array.from({ length: 1000 }, (_, k) => ({
          content: content(start + k),
          scope: "permanent" as const,
        })),
      });
      ids.push(...memories.map((m) => m.id));
    }
    expect(new Set(ids).size).toBe(TOTAL);

    // Delete 90% through the service, many at a time (the write queue merges them).
    const kept = new Map<string, string>();
    const doomed: string[] = [];
    ids.forEach((id, i) => (i % 10 === 3 ? kept.set(id, content(i)) : doomed.push(id)));
    for (let i = 0; i < doomed.length; i += 500) {
      await Promise.all(doomed.slice(i, i + 500).map((id) => service.delete(id)));
    }
    expect((await service.stats()).total_memories).toBe(TOTAL / 10);
    expect(await store.count()).toBe(TOTAL / 10);
    await expectEachFoundTopOne(service, kept);
    await service.flushAccessUpdates();
    await store.close();

    // A restart loads the same memories from Chroma.
    const reopened = await openService();
    expect((await reopened.service.stats()).total_memories).toBe(TOTAL / 10);
    await expectEachFoundTopOne(reopened.service, kept);
    await reopened.service.flushAccessUpdates();
    await reopened.store.close();
  }, 600_000);
});
