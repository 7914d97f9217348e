import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopK } from "../../../core/retrieval/top-k.js";

describe("TopK", () => {
  it("keeps the same k entries as sorting everything, whatever the order of the offers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 3 }))),
        fc.integer({ min: 0, max: 12 }),
        (items, k) => {
          const top = new TopK(k);
          items.forEach(([score, id], slot) => top.offer({ slot, id, score }));
          const want = items
            .map(([score, id], slot) => ({ slot, id, score }))
            .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, k)
            .map(({ score, id }) => ({ score, id }));
          expect(top.sorted().map(({ score, id }) => ({ score, id }))).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ignores NaN scores", () => {
    const top = new TopK(2);
    top.offer({ slot: 0, id: "x", score: Number.NaN });
    top.offer({ slot: 1, id: "y", score: 1 });
    expect(top.sorted()).toEqual([{ slot: 1, id: "y", score: 1 }]);
  });
});
