import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  estimateTokens,
  measureText,
  tokensForMeasure,
  utf8ByteLength,
} from "../../../core/tokens/index.js";

/**
 * Text built from the characters that matter here: ASCII, 2-, 3- and 4-byte UTF-8, lone
 * surrogates and several kinds of whitespace (cheaper to generate than fast-check's full
 * "binary" unit, which costs seconds to set up).
 */
const trickyText = fc.oneof(
  fc.string(),
  fc.string({
    unit: fc.constantFrom(
      "a",
      "b",
      "-",
      " ",
      "\n",
      "\t",
      "\u00a0",
      "\u3000",
      "é",
      "€",
      "😀",
      "\ud83d",
      "\ude00",
    ),
  }),
);

describe("estimateTokens", () => {
  it("is 0 for the empty string", () => {
    expect(estimateTokens("")).toBe(0);
  });

  it("uses the word count when words dominate: floor(words × 1.25 × 1.1)", () => {
    // 4 words, 7 bytes: 4 × 1.25 = 5 > 7 / 3.5 = 2, so floor(5 × 1.1) = 5.
    expect(estimateTokens("a b c d")).toBe(5);
  });

  it("uses the UTF-8 byte count when bytes dominate: floor(bytes / 3.5 × 1.1)", () => {
    // One 35-byte word: 35 / 3.5 = 10 > 1.25, so floor(10 × 1.1) = 11.
    expect(estimateTokens("x".repeat(35))).toBe(11);
  });

  it("counts multi-byte characters by their UTF-8 length, not by UTF-16 units", () => {
    // "€" is 3 bytes; 7 of them are 21 bytes: floor(21 / 3.5 × 1.1) = floor(6.6) = 6.
    expect(estimateTokens("€".repeat(7))).toBe(6);
    // An emoji is 2 UTF-16 units but 4 bytes: 7 of them are 28 bytes → floor(8 × 1.1) = 8.
    expect(estimateTokens("😀".repeat(7))).toBe(8);
  });

  it("estimates the recall header at 8 tokens", () => {
    expect(estimateTokens("--- Relevant Memories ---\n")).toBe(8);
  });

  it("matches the formula computed independently for arbitrary text", () => {
    fc.assert(
      fc.property(trickyText, (text) => {
        const words = text.split(/\s+/).filter((w) => w !== "").length;
        const bytes = Buffer.byteLength(text, "utf8");
        expect(estimateTokens(text)).toBe(Math.floor(Math.max(words * 1.25, bytes / 3.5) * 1.1));
      }),
    );
  });
});

describe("utf8ByteLength", () => {
  it("agrees with TextEncoder, lone surrogates included", () => {
    const encoder = new TextEncoder();
    for (const text of ["", "abc", "héllo", "€", "😀", "\ud83d", "\ude00x", "a\ud83d\ud83d😀"]) {
      expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
    }
    fc.assert(
      fc.property(trickyText, (text) => {
        expect(utf8ByteLength(text)).toBe(encoder.encode(text).length);
      }),
    );
  });
});

describe("measureText", () => {
  it("counts runs of non-whitespace as words, whatever the whitespace", () => {
    expect(measureText("  one\ttwo\n\u00a0three\u3000four  ")).toMatchObject({ words: 4 });
  });

  it("adds up over texts that end in whitespace, so running totals are exact", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 8 }), (parts) => {
        const lines = parts.map((p) => `${p}\n`);
        const sum = lines
          .map(measureText)
          .reduce((a, b) => ({ words: a.words + b.words, bytes: a.bytes + b.bytes }), {
            words: 0,
            bytes: 0,
          });
        expect(sum).toEqual(measureText(lines.join("")));
        expect(tokensForMeasure(sum)).toBe(estimateTokens(lines.join("")));
      }),
    );
  });
});
