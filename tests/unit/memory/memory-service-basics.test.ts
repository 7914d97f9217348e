import { describe, expect, it } from "vitest";
import { AgentServicesError } from "../../../core/errors.js";
import { MemoryService } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";

const T0 = "2026-11-21T10:00:00.000Z";

async function setup() {
  const store = new InMemoryVectorStore();
  const embedder = new FakeEmbedder({ dimensions: 32 });
  const clock = new ManualClock(T0);
  let n = 0;
  const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  const service = new MemoryService({ store, embedder, clock, newId });
  await service.init();
  return { store, embedder, clock, service };
}

describe("MemoryService basics", () => {
  it("stores a memory with the seed's defaults and reads every field back", async () => {
    const { service } = await setup();
    const { id, stored } = await service.remember({ content: "Deploys run on Fridays" });
    expect(stored).toBe(true);
    expect(await service.get(id)).toEqual({
      id,
      content: "Deploys run on Fridays",
      type: "fact",
      scope: "session",
      tags: [],
      project: "",
      confidence: 1,
      created_at: T0,
      updated_at: T0,
      last_accessed: T0,
      access_count: 0,
      expires_at: "2026-11-22T10:00:00.000Z",
    });
  });

  it("round-trips tags with separators, quotes and unicode, and a permanent memory never expires", async () => {
    const { service } = await setup();
    const tags = ["a,b", 'quote"d', "pipe|x", "tag:colon", "ünï", ""];
    const { id } = await service.remember({
      content: "x",
      type: "rule",
      scope: "permanent",
      tags,
      project: "billing",
      confidence: 0,
    });
    const memory = await service.get(id);
    expect(memory.tags).toEqual(tags);
    expect(memory.expires_at).toBeNull();
    expect(memory.confidence).toBe(0);
    expect(memory.project).toBe("billing");
  });

  it("binds the store to the embedder's id and dimensions on init", async () => {
    const { store } = await setup();
    await expect(store.bind({ embedderId: "other", dimensions: 32 })).rejects.toMatchObject({
      code: "embedder_mismatch",
    });
  });

  it("rejects a non-UUID id naming the field and answers not_found for an unknown UUID", async () => {
    const { service } = await setup();
    await expect(service.get("nope")).rejects.toThrow('id: expected a UUID, got "nope"');
    await expect(service.get("11111111-1111-4111-8111-111111111111")).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(service.delete("11111111-1111-4111-8111-111111111111")).rejects.toBeInstanceOf(
      AgentServicesError,
    );
  });

  it("recalls a stored memory into a context with the header line", async () => {
    const { service } = await setup();
    await service.remember({ content: "Deploys run on Fridays", type: "rule" });
    const result = await service.recall({ message: "when do deploys run" });
    expect(result.context).toBe("--- Relevant Memories ---\n[rule] Deploys run on Fridays\n");
    expect(result.memory_count).toBe(1);
    expect(result.tokens_used).toBeGreaterThan(0);
  });
});
