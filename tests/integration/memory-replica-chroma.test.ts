import { randomUUID } from "node:crypto";
import { ChromaClient } from "chromadb";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ChromaVectorQuery } from "../../adapters/chroma/chroma-vector-query.js";
import { ChromaVectorStore } from "../../adapters/chroma/chroma-vector-store.js";
import { HashingEmbedder } from "../../adapters/local/hashing-embedder.js";
import { SystemClock } from "../../adapters/system/system-clock.js";
import { MemoryService } from "../../core/memory/index.js";

const chromaUrl = inject("chromaUrl");
const collection = `replica-${randomUUID()}`;
const opened: ChromaVectorStore[] = [];

/** One stateless replica: its own store and query clients on the shared collection. */
async function replica(): Promise<MemoryService> {
  const store = new ChromaVectorStore({ url: chromaUrl, collection });
  opened.push(store);
  const service = new MemoryService({
    store,
    embedder: new HashingEmbedder({ dimensions: 64 }),
    clock: new SystemClock(),
    replicaQuery: new ChromaVectorQuery({ url: chromaUrl, collection }),
  });
  expect(await service.init()).toBe(0);
  return service;
}

afterAll(async () => {
  for (const store of opened) await store.close();
  const url = new URL(chromaUrl);
  await new ChromaClient({ host: url.hostname, port: Number(url.port) })
    .deleteCollection({ name: collection })
    .catch(() => undefined);
});

describe("two memory services in replica mode on one Chroma collection (issue 7)", () => {
  it("see each other's writes: get, search, recall, stats, duplicates and deletes", async () => {
    const a = await replica();
    const b = await replica();
    const rule = await a.remember({
      content: "Deploys run on Fridays after the billing freeze",
      type: "rule",
      scope: "permanent",
    });
    const other = await b.remember({
      content: "The search team owns the ranking service",
      project: "search",
      scope: "project",
    });
    expect((await b.get(rule.id)).content).toBe("Deploys run on Fridays after the billing freeze");
    expect((await a.get(other.id)).project).toBe("search");

    const found = await b.search({ message: "Deploys run on Fridays after the billing freeze" });
    expect(found.results[0]?.memory.id).toBe(rule.id);
    const inBilling = await a.search({ message: "ranking service", project: "billing" });
    expect(inBilling.results.map((r) => r.memory.id)).not.toContain(other.id);
    const recalled = await a.recall({ message: "who owns the ranking service", project: "search" });
    expect(recalled.context).toContain("The search team owns the ranking service");

    expect(await b.stats()).toMatchObject({
      total_memories: 2,
      by_type: { rule: 1, fact: 1 },
      by_scope: { permanent: 1, project: 1 },
    });

    const again = await b.remember({
      content: "Deploys  run on Fridays after the billing freeze",
      type: "rule",
      scope: "permanent",
      tags: ["ops"],
    });
    expect(again).toEqual({ id: rule.id, stored: true, deduplicated: true });
    expect((await a.get(rule.id)).tags).toEqual(["ops"]);

    await a.delete(other.id);
    await expect(b.get(other.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await b.stats()).total_memories).toBe(1);
  });
});
