/**
 * A tags filter costs work linear in the memory's tags, whatever the number of wanted tags: a
 * recall with 100,000 tags against a memory holding them (each fits a 1 MB body) compared
 * `wanted × held / 2` strings, ~10 s of the event loop for one request. Work is counted as reads
 * of the memory's tags (a counting proxy), not timed. The answers are checked through the
 * service: recall, search, list, stats and delete by filter.
 */
import { describe, expect, it } from "vitest";
import { compileListFilter, compileMemoryFilter } from "../../../core/memory/index.js";
import type { Memory } from "../../../core/memory/index.js";
import { memoryFixture, QUERY_VECTOR, vectorAt } from "./memory-fixture.js";

function tagsOf(count: number, prefix = "t"): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i}`);
}

/** Reads of `tags` while `accept` judges a memory carrying them. */
function tagReads(tags: readonly string[], accept: (tags: readonly string[]) => boolean): number {
  let reads = 0;
  const counted = new Proxy(tags, {
    get(target, key, receiver) {
      reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  expect(accept(counted)).toBe(true);
  return reads;
}

const memoryWith = (tags: readonly string[]) =>
  ({ project: "", scope: "session", type: "fact", tags, content: "x" }) as unknown as Memory;

describe("tags filters do work linear in the tags (a client's 100,000 tags)", () => {
  for (const [name, compile] of [
    ["recall and search", (tags: string[]) => compileMemoryFilter({ tags })],
    ["list, stats and delete", (tags: string[]) => compileListFilter({ tags })],
  ] as const) {
    it(`${name}: doubling the wanted and held tags at most doubles the reads`, () => {
      const work = (n: number) => {
        const accept = compile(tagsOf(n));
        return tagReads(tagsOf(n), (tags) => accept(memoryWith(tags)));
      };
      const small = work(2_000);
      const large = work(4_000);
      // Quadratic work grows 4x; linear work 2x.
      expect(large / small).toBeLessThan(3);
      expect(large / 4_000).toBeLessThan(10);
    });
  }

  it("a wanted tag repeated counts once; a held tag repeated does not stand for another", () => {
    const wanted = [...tagsOf(20), ...tagsOf(20)];
    const recall = compileMemoryFilter({ tags: wanted });
    const list = compileListFilter({ tags: wanted });
    for (const accept of [recall, list]) {
      expect(accept(memoryWith(tagsOf(20)))).toBe(true);
      expect(accept(memoryWith([...tagsOf(20), "other"]))).toBe(true);
      // 21 tags held, 19 of the wanted ones: one repeated must not make up for `t19`.
      expect(accept(memoryWith([...tagsOf(19), "t0", "t1"]))).toBe(false);
      expect(accept(memoryWith([]))).toBe(false);
    }
  });

  it("recall, search, list, stats and delete select by many tags as by few", async () => {
    const { service, embedder } = await memoryFixture();
    embedder.setVector("q", QUERY_VECTOR);
    embedder.setVector("all tags", vectorAt(0.9));
    embedder.setVector("most tags", vectorAt(0.8));
    const many = tagsOf(3_000);
    const all = await service.remember({ content: "all tags", tags: many });
    await service.remember({ content: "most tags", tags: many.slice(1) });
    const wanted = [...many].reverse();

    const searched = await service.search({ message: "q", tags: wanted });
    expect(searched.results.map((r) => r.memory.id)).toEqual([all.id]);
    const recalled = await service.recall({ message: "q", tags: wanted });
    expect(recalled.memory_count).toBe(1);
    expect(recalled.context).toContain("all tags");
    const listed = await service.list({ tags: wanted });
    expect(listed.memories.map((m) => m.id)).toEqual([all.id]);
    expect((await service.stats({ tags: wanted })).total_memories).toBe(1);
    expect(await service.deleteMatching({ tags: wanted, dry_run: true })).toEqual({
      deleted: 0,
      matched: 1,
    });
  });
});
