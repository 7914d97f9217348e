import { describe, expect, it } from "vitest";
import { quantizeRow } from "../../../core/retrieval/vector-codes.js";

describe("quantizeRow", () => {
  it("codes a row in place inside larger arrays as it codes the same row on its own", () => {
    const row = Float32Array.of(0.5, -1, 0.25, 0.125, -0.0625);
    const alone = new Int8Array(16);
    const expected = quantizeRow(row, alone);

    const values = new Float32Array(20).fill(9);
    values.set(row, 8);
    const codes = new Int8Array(64).fill(7);
    const stats = quantizeRow(values, codes, { values: 8, length: 5, codes: 16, codeBytes: 16 });

    expect(stats).toEqual(expected);
    expect([...codes.subarray(16, 32)]).toEqual([...alone]);
    // Only the row's own code bytes are written.
    expect([...codes.subarray(0, 16)].every((c) => c === 7)).toBe(true);
    expect([...codes.subarray(32)].every((c) => c === 7)).toBe(true);
  });

  it("gives a zero row a zero scale and zero codes", () => {
    const codes = new Int8Array(16).fill(3);
    expect(
      quantizeRow(new Float32Array(4), codes, { values: 0, length: 4, codes: 0, codeBytes: 16 }),
    ).toEqual({ scale: 0, residual: 0, l1: 0, norm: 0 });
    expect(codes.every((c) => c === 0)).toBe(true);
  });
});
