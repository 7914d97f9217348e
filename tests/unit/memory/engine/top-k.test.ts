import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopK } from "../../../../core/memory/engine/top-k.js";

describe("TopK", () => {
  it("keeps the same k entries as sorting everything, whatever the order of the offers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 3 }))),
        fc.integer({ min: 0, max: 12 }),
        (items, k) => {
          const top = new TopK<string>(k, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
          for (const [score, item] of items) top.offer(score, item);
          const want = [...items]
            .sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
            .slice(0, k)
            .map(([score, item]) => ({ score, item }));
          expect(top.sorted()).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ignores NaN scores", () => {
    const top = new TopK<string>(2, () => 0);
    top.offer(Number.NaN, "x");
    top.offer(1, "y");
    expect(top.sorted()).toEqual([{ score: 1, item: "y" }]);
  });
});
