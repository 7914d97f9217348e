import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  contentHash,
  decodeMemory,
  encodeMemoryMetadata,
  MEMORY_SCOPES,
  MEMORY_TYPES,
  NEVER_EXPIRES_MS,
  normaliseContent,
} from "../../../core/memory/index.js";
import type { Memory } from "../../../core/memory/index.js";

const memory: Memory = {
  id: "00000000-0000-4000-8000-000000000001",
  content: "Deploys run on Fridays",
  type: "rule",
  scope: "ttl",
  tags: ["ops", 'we"ird,|tag'],
  project: "billing",
  confidence: 0.75,
  created_at: "2026-11-21T10:00:00.000Z",
  updated_at: "2026-11-21T11:00:00.000Z",
  last_accessed: "2026-11-21T12:00:00.000Z",
  access_count: 4,
  expires_at: "2026-12-21T10:00:00.000Z",
};

describe("memory metadata layout", () => {
  it("stores flat scalars only: ISO and epoch-ms timestamps, tags as a JSON string, the hash", () => {
    expect(encodeMemoryMetadata(memory, "abc")).toEqual({
      memory_v: 1,
      type: "rule",
      scope: "ttl",
      project: "billing",
      tags: '["ops","we\\"ird,|tag"]',
      confidence: 0.75,
      access_count: 4,
      created_at: "2026-11-21T10:00:00.000Z",
      created_at_ms: Date.parse("2026-11-21T10:00:00.000Z"),
      updated_at: "2026-11-21T11:00:00.000Z",
      updated_at_ms: Date.parse("2026-11-21T11:00:00.000Z"),
      last_accessed: "2026-11-21T12:00:00.000Z",
      last_accessed_ms: Date.parse("2026-11-21T12:00:00.000Z"),
      expires_at: "2026-12-21T10:00:00.000Z",
      expires_at_ms: Date.parse("2026-12-21T10:00:00.000Z"),
      content_hash: "abc",
    });
  });

  it("stores a far-future expires_at_ms and no expires_at for a memory that never expires", () => {
    const metadata = encodeMemoryMetadata({ ...memory, scope: "permanent", expires_at: null }, "h");
    expect(metadata["expires_at_ms"]).toBe(NEVER_EXPIRES_MS);
    expect(metadata).not.toHaveProperty("expires_at");
    expect(new Date(NEVER_EXPIRES_MS).toISOString()).toBe("+275760-09-13T00:00:00.000Z");
  });

  it("round-trips every field of any memory", () => {
    const instant = fc
      .integer({ min: 0, max: Date.parse("2100-01-01T00:00:00.000Z") })
      .map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(
        fc.record({
          content: fc.string(),
          type: fc.constantFrom(...MEMORY_TYPES),
          scope: fc.constantFrom(...MEMORY_SCOPES),
          tags: fc.array(
            fc.string({
              unit: fc.constantFrom("a", ",", "|", '"', "\\", "é", "😀", "\ud83d", " "),
            }),
          ),
          project: fc.string(),
          confidence: fc.double({ min: 0, max: 1, noNaN: true }),
          created_at: instant,
          updated_at: instant,
          last_accessed: instant,
          access_count: fc.nat(),
          expires_at: fc.option(instant, { nil: null }),
        }),
        (fields) => {
          const original: Memory = { id: memory.id, ...fields };
          const metadata = encodeMemoryMetadata(original, "hash");
          for (const value of Object.values(metadata)) {
            expect(["string", "number", "boolean"]).toContain(typeof value);
          }
          expect(decodeMemory({ id: original.id, document: original.content, metadata })).toEqual(
            original,
          );
        },
      ),
    );
  });

  it("refuses a record that does not follow the layout, naming the record and the key", () => {
    const metadata = { ...encodeMemoryMetadata(memory, "h"), tags: "not json" };
    expect(() => decodeMemory({ id: "r1", document: "x", metadata })).toThrow(
      'memory record r1: metadata key tags is missing or invalid ("not json")',
    );
    const { type: _type, ...withoutType } = encodeMemoryMetadata(memory, "h");
    expect(() => decodeMemory({ id: "r2", document: "x", metadata: withoutType })).toThrow(
      "memory record r2: metadata key type is missing or invalid",
    );
    expect(() =>
      decodeMemory({
        id: "r3",
        document: "x",
        metadata: { ...encodeMemoryMetadata(memory, "h"), scope: "forever" },
      }),
    ).toThrow("memory record r3: metadata key scope is missing or invalid");
  });
});

describe("content normalisation for duplicates", () => {
  it("trims and collapses whitespace but keeps case and punctuation", () => {
    expect(normaliseContent("  Use\tUTC,\n\n  always. ")).toBe("Use UTC, always.");
    expect(normaliseContent("Use UTC")).not.toBe(normaliseContent("use utc"));
  });

  it("hashes equal normalised contents equally and different ones differently", async () => {
    const a = await contentHash("Deploys  run\non Fridays ");
    expect(a).toBe(await contentHash("Deploys run on Fridays"));
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(await contentHash("Deploys run on Mondays"));
  });
});
