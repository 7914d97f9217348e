import { describe, expect, it } from "vitest";
import { ndjsonLines, type NdjsonLine } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore } from "../../../core/testing/index.js";
import { memoryFixture } from "./memory-fixture.js";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function asLines(texts: readonly string[]): NdjsonLine[] {
  return texts.map((text, i) => ({ line: i + 1, text }));
}

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? new TextEncoder().encode(part) : part;
}

describe("export and import", () => {
  // Heavy: 450 memories exported and imported. Took 0.3 s and 0.8 s in two runs of the unit project
  // on 2 shared cores with two busy loops running.
  it("round-trips every live memory into an empty store without losing anything", async () => {
    const source = await memoryFixture();
    await source.service.rememberBatch({
      memories: Array.from({ length: 450 }, (_, i) => ({
        content: `memory ${i} ünïcødé "quoted"\nsecond line`,
        type: (["rule", "fact", "episode"] as const)[i % 3] ?? "fact",
        scope: (["permanent", "project", "session", "ttl"] as const)[i % 4] ?? "permanent",
        tags: i % 2 === 0 ? ["even", `n${i}`] : [],
        project: i % 5 === 0 ? "p5" : "",
        confidence: (i % 10) / 10,
      })),
    });
    source.clock.advance(1000);
    await source.service.recall({ message: "memory 7" });
    const exported = await collect(source.service.exportMemories());
    expect(exported).toHaveLength(450);
    const ndjson = exported.map((m) => JSON.stringify(m)).join("\n") + "\n";

    const target = await memoryFixture();
    target.clock.set(source.clock.now());
    const result = await target.service.importMemories(ndjsonLines(chunks(ndjson), 1 << 20));
    expect(result).toEqual({ imported: 450, deduplicated: 0, rejected: [] });
    expect(await collect(target.service.exportMemories())).toEqual(exported);
    // Durable, not only in the engine: a new service on the target store reads the same.
    const reopened = await memoryFixture({}, target.store);
    reopened.clock.set(source.clock.now());
    expect(await collect(reopened.service.exportMemories())).toEqual(exported);
  }, 30_000);

  it("uses vectors of the same embedder and embeds again when they come from another", async () => {
    const source = await memoryFixture();
    await source.service.remember({ content: "alpha", scope: "permanent" });
    await source.service.remember({ content: "beta", scope: "permanent" });
    const [alpha, beta] = await collect(source.service.exportMemories({ vectors: true }));
    expect(alpha?.vector).toHaveLength(8);
    expect(alpha?.embedder).toBe(source.embedder.id);
    const target = await memoryFixture();
    target.clock.set(source.clock.now());
    target.embedder.calls.length = 0;
    const foreign = { ...beta, embedder: "someone-else:8" };
    const result = await target.service.importMemories(
      asLines([JSON.stringify(alpha), JSON.stringify(foreign)]),
    );
    expect(result.imported).toBe(2);
    expect(target.embedder.calls).toEqual([{ method: "documents", texts: ["beta"] }]);
  });

  it("keeps the direction of a vector whose squares overflow or underflow", async () => {
    const { service, embedder } = await memoryFixture();
    embedder.calls.length = 0;
    const line = (content: string, scale: number) =>
      JSON.stringify({
        content,
        scope: "permanent",
        embedder: embedder.id,
        vector: [3, 4, 0, 0, 0, 0, 0, 0].map((x) => x * scale),
      });
    // 3e300 squared is Infinity: the vector used to be stored as all zeros.
    const result = await service.importMemories(
      asLines([line("huge", 1e300), line("tiny", 1e-300), line("plain", 1)]),
    );
    expect(result).toEqual({ imported: 3, deduplicated: 0, rejected: [] });
    expect(embedder.calls.flatMap((call) => call.texts)).toEqual([]);
    const exported = await collect(service.exportMemories({ vectors: true }));
    for (const memory of exported) {
      const [a, b, ...rest] = memory.vector ?? [];
      expect(a, memory.content).toBeCloseTo(0.6, 6);
      expect(b, memory.content).toBeCloseTo(0.8, 6);
      expect(rest.every((x) => x === 0)).toBe(true);
    }
  });

  it("deduplicates ids already stored and contents already live, and rejects bad lines with their number", async () => {
    const { service, clock } = await memoryFixture();
    const { id } = await service.remember({ content: "kept", scope: "permanent", tags: ["a"] });
    const existing = await service.get(id);
    clock.advance(1000);
    const result = await service.importMemories(
      asLines([
        JSON.stringify(existing),
        JSON.stringify({ content: "  kept ", scope: "permanent", tags: ["b"] }),
        "{not json",
        JSON.stringify({ content: "x", scop: "permanent" }),
        JSON.stringify({ content: "old", scope: "ttl", expires_at: "2020-01-01T00:00:00.000Z" }),
        JSON.stringify({ content: "new one" }),
        JSON.stringify({ content: "new one" }),
        "[1,2]",
      ]),
    );
    expect(result.imported).toBe(1);
    expect(result.deduplicated).toBe(3);
    expect(result.rejected).toEqual([
      { line: 3, error: expect.stringContaining("invalid JSON") as unknown },
      { line: 4, error: 'unknown field "scop"; did you mean "scope"?' },
      { line: 5, error: "expires_at: the memory expired at 2020-01-01T00:00:00.000Z" },
      { line: 8, error: "body: expected a JSON object, got an array" },
    ]);
    expect((await service.get(id)).tags).toEqual(["a", "b"]);
    expect((await service.stats()).total_memories).toBe(2);
  });

  it("rejects a timestamp on a day that does not exist, naming its field", async () => {
    const { service } = await memoryFixture();
    const result = await service.importMemories(
      asLines([
        JSON.stringify({ content: "a", created_at: "2020-02-30T00:00:00.000Z" }),
        JSON.stringify({ content: "b", last_accessed: "2020-04-31T10:00:00.000Z" }),
        JSON.stringify({
          content: "c",
          scope: "permanent",
          created_at: "2020-02-29T00:00:00.000Z",
        }),
      ]),
    );
    expect(result.rejected).toEqual([
      { line: 1, error: expect.stringMatching(/^created_at: .*day that exists/) as unknown },
      { line: 2, error: expect.stringMatching(/^last_accessed: .*day that exists/) as unknown },
    ]);
    expect(result.imported).toBe(1);
  });

  it("gives lines without id or timestamps new ones, and computes the expiry from the scope", async () => {
    const { service } = await memoryFixture({ ttlHours: 2 });
    await service.importMemories(asLines([JSON.stringify({ content: "bare", scope: "ttl" })]));
    const [memory] = (await service.list()).memories;
    expect(memory).toMatchObject({
      id: "00000000-0000-4000-8000-000000000001",
      created_at: "2026-11-21T10:00:00.000Z",
      expires_at: "2026-11-21T12:00:00.000Z",
      access_count: 0,
    });
  });

  it("rejects timestamps in the future and expiries beyond their scope's limit, naming line and field (issue 26)", async () => {
    const { service } = await memoryFixture({ sessionIdleHours: 24 });
    // The fixture's clock: 2026-11-21T10:00:00.000Z.
    const result = await service.importMemories(
      asLines([
        JSON.stringify({
          content: "a",
          scope: "permanent",
          created_at: "9999-01-01T00:00:00.000Z",
        }),
        JSON.stringify({ content: "b", updated_at: "2026-11-21T10:06:00.000Z" }),
        JSON.stringify({ content: "c", last_accessed: "2027-01-01T00:00:00.000Z" }),
        JSON.stringify({ content: "d", scope: "session", expires_at: "9999-01-01T00:00:00.000Z" }),
        JSON.stringify({ content: "e", scope: "ttl", expires_at: "2200-01-01T00:00:00.000Z" }),
        // Within the skew and the limits: imported.
        JSON.stringify({ content: "f", created_at: "2026-11-21T10:04:00.000Z" }),
        JSON.stringify({ content: "g", scope: "session", expires_at: "2026-11-22T09:00:00.000Z" }),
        JSON.stringify({ content: "h", scope: "ttl", expires_at: "2100-01-01T00:00:00.000Z" }),
      ]),
    );
    expect(result.rejected).toEqual([
      {
        line: 1,
        error:
          "created_at: expected an instant no later than now (5 minutes of clock skew allowed), got 9999-01-01T00:00:00.000Z",
      },
      {
        line: 2,
        error:
          "updated_at: expected an instant no later than now (5 minutes of clock skew allowed), got 2026-11-21T10:06:00.000Z",
      },
      {
        line: 3,
        error:
          "last_accessed: expected an instant no later than now (5 minutes of clock skew allowed), got 2027-01-01T00:00:00.000Z",
      },
      {
        line: 4,
        error:
          "expires_at: a session memory expires at most 24 hours (the session idle window) after last_accessed, got 9999-01-01T00:00:00.000Z",
      },
      {
        line: 5,
        error:
          "expires_at: a ttl memory lives at most 3155760000 seconds (the limit of ttl_seconds) after created_at, got 2200-01-01T00:00:00.000Z",
      },
    ]);
    expect(result.imported).toBe(3);
  });

  it("merges a line whose id is stored with other content as remember merges: tags joined, higher confidence (issue 26)", async () => {
    const { service, clock } = await memoryFixture();
    const { id } = await service.remember({
      content: "original",
      scope: "permanent",
      tags: ["a"],
      confidence: 0.4,
    });
    const before = await service.get(id);
    clock.advance(1000);
    const line = { ...before, content: "other words", tags: ["b"], confidence: 0.9 };
    const result = await service.importMemories(asLines([JSON.stringify(line)]));
    expect(result).toEqual({ imported: 0, deduplicated: 1, rejected: [] });
    const after = await service.get(id);
    expect(after).toMatchObject({ content: "original", tags: ["a", "b"], confidence: 0.9 });
    expect(after.updated_at).toBe(clock.now().toISOString());
    // The same line again adds nothing, so nothing changes, updated_at included.
    clock.advance(1000);
    await service.importMemories(asLines([JSON.stringify(line)]));
    expect(await service.get(id)).toEqual(after);
  });

  it("does not import with a different embedder's store binding mixed in", async () => {
    const store = new InMemoryVectorStore();
    await store.bind({ embedderId: new FakeEmbedder({ dimensions: 4 }).id, dimensions: 4 });
    await expect(memoryFixture({}, store)).rejects.toMatchObject({ code: "embedder_mismatch" });
  });
});

describe("ndjsonLines", () => {
  it("splits across chunks, keeps multi-byte characters whole, skips blank lines and drops \\r", async () => {
    const bytes = new TextEncoder().encode('{"a":"é"}\r\n\n{"b":2}');
    const items = await collect(
      ndjsonLines(chunks(bytes.subarray(0, 7), bytes.subarray(7, 13), bytes.subarray(13)), 100),
    );
    expect(items).toEqual([
      { line: 1, text: '{"a":"é"}' },
      { line: 3, text: '{"b":2}' },
    ]);
  });

  it("reports a line over the limit without buffering it and goes on", async () => {
    const items = await collect(ndjsonLines(chunks("a".repeat(60), "a".repeat(60), "\nok\n"), 100));
    expect(items).toEqual([
      { line: 1, error: "line is longer than 100 bytes" },
      { line: 2, text: "ok" },
    ]);
  });

  it("reports bytes that are not UTF-8", async () => {
    const items = await collect(ndjsonLines(chunks(new Uint8Array([0xff, 0x0a])), 100));
    expect(items).toEqual([{ line: 1, error: "line is not valid UTF-8" }]);
  });
});
