import { describe, expect, it } from "vitest";
import { HOUR, memoryFixture, T0 } from "./memory-fixture.js";

describe("update (PATCH)", () => {
  it("changes the given fields and updated_at, never created_at or access data", async () => {
    const { service, clock } = await memoryFixture();
    const { id } = await service.remember({
      content: "Deploys run on Fridays",
      scope: "permanent",
    });
    await service.recall({ message: "deploys" });
    const before = await service.get(id);
    clock.advance(HOUR);
    const updated = await service.update(id, {
      tags: ["ops", "ops"],
      confidence: 0.5,
      type: "rule",
    });
    expect(updated).toEqual({
      ...before,
      tags: ["ops"],
      confidence: 0.5,
      type: "rule",
      updated_at: "2026-11-21T11:00:00.000Z",
    });
    expect(await service.get(id)).toEqual(updated);
    expect(updated.created_at).toBe(T0);
    expect(updated.access_count).toBe(1);
  });

  it("embeds changed content again, so search finds the new text and not the old", async () => {
    const { service, embedder, store } = await memoryFixture();
    const { id } = await service.remember({ content: "coffee machine broken", scope: "permanent" });
    embedder.calls.length = 0;
    await service.update(id, { content: "tea kettle repaired" });
    expect(embedder.calls).toEqual([{ method: "documents", texts: ["tea kettle repaired"] }]);
    const hits = await service.search({ message: "kettle" });
    expect(hits.results.map((r) => r.memory.id)).toEqual([id]);
    expect((await store.get([id]))[0]?.document).toBe("tea kettle repaired");
  });

  it("does not embed when the content is unchanged", async () => {
    const { service, embedder } = await memoryFixture();
    const { id } = await service.remember({ content: "x", scope: "permanent" });
    embedder.calls.length = 0;
    await service.update(id, { project: "p" });
    expect(embedder.calls).toEqual([]);
  });

  it("moves a memory between project searches when its project or scope changes", async () => {
    const { service } = await memoryFixture({}, undefined, "default");
    const { id } = await service.remember({ content: "kettle descaling schedule", project: "a" });
    const found = async (project: string) =>
      (await service.search({ message: "kettle descaling", project })).results.map(
        (r) => r.memory.id,
      );
    expect(await found("a")).toEqual([id]);
    await service.update(id, { project: "b" });
    expect(await found("a")).toEqual([]);
    expect(await found("b")).toEqual([id]);
    await service.update(id, { scope: "permanent" });
    expect(await found("a")).toEqual([id]);
    await service.update(id, { scope: "project" });
    expect(await found("a")).toEqual([]);
    expect(await found("b")).toEqual([id]);
  });

  it("merges into an identical live memory and reports it", async () => {
    const { service } = await memoryFixture();
    const { id: keep } = await service.remember({
      content: "Use tabs",
      tags: ["style"],
      confidence: 0.4,
    });
    const { id: other } = await service.remember({
      content: "Use spaces",
      tags: ["fmt"],
      confidence: 0.9,
    });
    const answer = await service.update(other, { content: "  Use   tabs " });
    expect(answer).toMatchObject({
      id: keep,
      deduplicated: true,
      tags: ["style", "fmt"],
      confidence: 0.9,
    });
    await expect(service.get(other)).rejects.toMatchObject({ code: "not_found" });
    expect((await service.list()).memories.map((m) => m.id)).toEqual([keep]);
  });

  it("moves the expiry with the scope and ttl_seconds, counted from the patch", async () => {
    const { service, clock } = await memoryFixture({ ttlHours: 10 });
    const { id } = await service.remember({ content: "x" });
    clock.advance(HOUR);
    expect((await service.update(id, { scope: "permanent" })).expires_at).toBeNull();
    expect((await service.update(id, { scope: "ttl" })).expires_at).toBe(
      "2026-11-21T21:00:00.000Z",
    );
    expect((await service.update(id, { ttl_seconds: 60 })).expires_at).toBe(
      "2026-11-21T11:01:00.000Z",
    );
    await expect(service.update(id, { scope: "project", ttl_seconds: 60 })).rejects.toMatchObject({
      message: 'ttl_seconds: only applies to scope "ttl", got scope "project"',
    });
  });

  it("answers not_found and invalid_input as get does, and refuses an empty patch", async () => {
    const { service } = await memoryFixture();
    await expect(
      service.update("00000000-0000-4000-8000-000000000999", { tags: [] }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(service.update("nope", { tags: [] })).rejects.toMatchObject({
      message: 'id: expected a UUID, got "nope"',
    });
    const { id } = await service.remember({ content: "x" });
    await expect(service.update(id, {})).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("body: expected at least one of content") as unknown,
    });
    await expect(service.update(id, { confidence: 2 })).rejects.toMatchObject({
      message: "confidence: expected a number between 0 and 1, got 2",
    });
  });

  it("persists the change: a new service on the same store reads it back", async () => {
    const first = await memoryFixture();
    const { id } = await first.service.remember({ content: "old", scope: "permanent" });
    await first.service.update(id, { content: "new text", tags: ["t"], project: "p" });
    const second = await memoryFixture({}, first.store);
    expect(await second.service.get(id)).toMatchObject({
      content: "new text",
      tags: ["t"],
      project: "p",
    });
  });
});
