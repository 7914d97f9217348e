import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONTEXT_HEADER,
  estimateTokens,
  formatContextLine,
  packContext,
} from "../../../core/tokens/index.js";

describe("formatContextLine", () => {
  it("writes `[<label>] <text>` and ends the line with a newline", () => {
    expect(formatContextLine("rule", "Use UTC")).toBe("[rule] Use UTC\n");
  });

  it("turns every line break inside the text into a space so each entry stays one line", () => {
    expect(formatContextLine("fact", "a\nb\r\nc\rd\u2028e\u2029f\u0085g")).toBe(
      "[fact] a b c d e f g\n",
    );
  });
});

describe("packContext", () => {
  it("returns an empty context, no entries and 0 tokens when there is nothing to pack", () => {
    expect(packContext([], 2000)).toEqual({ context: "", included: [], tokens_used: 0 });
  });

  it("returns an empty context when not even one line fits with the header", () => {
    // Header plus "[rule] x\n": 6 words, 35 bytes → floor(max(7.5, 10) × 1.1) = 11 tokens.
    expect(packContext([{ label: "rule", text: "x" }], 10)).toEqual({
      context: "",
      included: [],
      tokens_used: 0,
    });
  });

  it("includes a line that fits exactly, with the header counted in the estimate", () => {
    const packed = packContext([{ label: "rule", text: "x" }], 11);
    expect(packed.context).toBe(`${CONTEXT_HEADER}[rule] x\n`);
    expect(packed.tokens_used).toBe(11);
    expect(estimateTokens(packed.context)).toBe(11);
  });

  it("keeps the given order and lists which entries were included", () => {
    const packed = packContext(
      [
        { label: "rule", text: "first" },
        { label: "fact", text: "second" },
      ],
      2000,
    );
    expect(packed.context).toBe(`${CONTEXT_HEADER}[rule] first\n[fact] second\n`);
    expect(packed.included).toEqual([0, 1]);
  });

  it("skips an entry that does not fit and still takes smaller ones after it", () => {
    const big = "word ".repeat(200).trim();
    const packed = packContext(
      [
        { label: "rule", text: "small one" },
        { label: "fact", text: big },
        { label: "episode", text: "small two" },
      ],
      40,
    );
    expect(packed.included).toEqual([0, 2]);
    expect(packed.context).toBe(`${CONTEXT_HEADER}[rule] small one\n[episode] small two\n`);
  });

  it("never exceeds the budget and reports the estimate of the exact context it returns", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ label: fc.constantFrom("rule", "fact"), text: fc.string() }), {
          maxLength: 20,
        }),
        fc.integer({ min: 1, max: 300 }),
        (entries, budget) => {
          const packed = packContext(entries, budget);
          expect(packed.tokens_used).toBeLessThanOrEqual(budget);
          expect(packed.tokens_used).toBe(estimateTokens(packed.context));
          expect(packed.context === "").toBe(packed.included.length === 0);
          // Greedy: every skipped entry would have broken the budget at its turn.
          const included = new Set(packed.included);
          let context = CONTEXT_HEADER;
          entries.forEach((entry, index) => {
            const next = context + formatContextLine(entry.label, entry.text);
            if (included.has(index)) context = next;
            else expect(estimateTokens(next)).toBeGreaterThan(budget);
          });
        },
      ),
    );
  });
});
