import { describe, expect, it } from "vitest";
import { DUPLICATE_LOOKUP_LIMIT, DuplicateLookup } from "../../../core/memory/duplicate-lookup.js";
import { contentHash, decodeMemory } from "../../../core/memory/index.js";
import type { MemoryScope, RememberResult } from "../../../core/memory/index.js";
import type { StoredRecord, VectorFilter } from "../../../core/ports/index.js";
import { InMemoryVectorStore } from "../../../core/testing/index.js";
import { memoryFixture, T0 } from "./memory-fixture.js";

const T0_MS = Date.parse(T0);

/** An in-memory store that logs the filter of every find and answers it a few turns later. */
class LoggedFinds extends InMemoryVectorStore {
  readonly finds: (VectorFilter | undefined)[] = [];
  override async find(filter?: VectorFilter, limit?: number): Promise<StoredRecord[]> {
    this.finds.push(filter);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    return super.find(filter, limit);
  }
}

/** The number of hashes a find asked for (0 for a find that is not a hash lookup). */
function hashesAsked(filter: VectorFilter | undefined): number {
  if (filter === undefined || !("field" in filter) || filter.field !== "content_hash") return 0;
  return filter.op === "in" ? filter.values.length : 1;
}

describe("duplicate lookup", () => {
  it("merges the lookups of concurrent remember calls into few store reads, each caller getting its own duplicate", async () => {
    const store = new LoggedFinds();
    const { service } = await memoryFixture({}, store);
    const contents = Array.from({ length: 8 }, (_, i) => `note number ${i}`);
    const stored: RememberResult[] = [];
    for (const content of contents) stored.push(await service.remember({ content }));
    store.finds.length = 0;

    // Every other call repeats a stored note, the rest are new; all run at once.
    const again = await Promise.all(
      contents.map((content, i) =>
        service.remember({ content: i % 2 === 0 ? content : `${content}!` }),
      ),
    );
    again.forEach((result, i) => {
      if (i % 2 === 0)
        expect(result).toEqual({ id: stored[i]?.id, stored: true, deduplicated: true });
      else expect(result.deduplicated).toBeUndefined();
    });
    expect(new Set(again.map((r) => r.id)).size).toBe(8);
    const lookups = store.finds.filter((f) => hashesAsked(f) > 0);
    expect(lookups.length).toBeLessThan(8);
    expect(lookups.reduce((sum, f) => sum + hashesAsked(f), 0)).toBe(8);
    expect(Math.max(...lookups.map(hashesAsked))).toBeGreaterThan(1);
  });

  it("finds a hash's duplicate even when another hash in the same read has more copies than the limit", async () => {
    const { service, store } = await memoryFixture();
    // One text stored in more projects than a merged read of two hashes returns, stored first so
    // the in-memory store lists its copies first.
    for (let p = 0; p < 2 * DUPLICATE_LOOKUP_LIMIT; p++) {
      await service.remember({ content: "shared text", scope: "project", project: `p${p}` });
    }
    const { id } = await service.remember({ content: "rare text", scope: "permanent" });
    const duplicates = new DuplicateLookup(store);
    const [sharedHash, rareHash] = [
      await contentHash("shared text"),
      await contentHash("rare text"),
    ];
    const lookUp = (hash: string, content: string, scope: MemoryScope, project: string) =>
      duplicates.find({ hash, type: "fact", scope, project, content, nowMs: T0_MS }, decodeMemory);
    // Asked for in one synchronous step, so they share one read of limit 2 × 100: the shared
    // text's 200 copies fill it.
    const [rare, shared] = await Promise.all([
      lookUp(rareHash, "rare text", "permanent", ""),
      lookUp(sharedHash, "shared text", "project", "p7"),
    ]);
    expect(rare).toBe(id);
    expect(shared).toMatch(/^00000000-0000-4000-8000-0+8$/);
  });

  it("rejects every waiting remember when the store read fails, and recovers", async () => {
    const store = new LoggedFinds();
    const { service } = await memoryFixture({}, store);
    store.failWith(new Error("down"));
    const results = await Promise.allSettled([
      service.remember({ content: "a" }),
      service.remember({ content: "b" }),
      service.remember({ content: "c" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    store.failWith(undefined);
    expect(await service.remember({ content: "a" })).toMatchObject({ stored: true });
  });
});
