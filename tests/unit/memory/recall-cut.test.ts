import { describe, expect, it } from "vitest";
import { DEFAULT_RECALL_KNEE_GAP, recallCutFloor } from "../../../core/memory/index.js";

const defaults = { minScore: 0.02, relativeFloor: 0.5, kneeGap: DEFAULT_RECALL_KNEE_GAP };

describe("recall's default cut (issue 22)", () => {
  it("keeps the candidates above a clear fall in relevance and drops the ones below it", () => {
    // The realistic store's "roll back billing-api" question: one runbook, then noise. The floor
    // is half the best (nothing lies between), so only the runbook clears it.
    expect(recallCutFloor([0.57, 0.02, 0.02, 0.02], defaults)).toBe(0.285);
  });

  it("also keeps candidates below the knee that are within the relative floor of the best", () => {
    // Largest fall: 0.55 to 0.05; 0.3 is half the best, so 0.3 and above stay.
    expect(recallCutFloor([0.6, 0.55, 0.05, 0.03], defaults)).toBeCloseTo(0.3);
  });

  it("keeps every candidate above the absolute floor when none stands out", () => {
    expect(recallCutFloor([0.2, 0.18, 0.15, 0.12, 0.01], defaults)).toBe(0.02);
  });

  it("measures a fall in log-odds, so the same relative drop counts the same at any level", () => {
    // 0.1 to 0.05 and 0.5 to 0.32 are both a fall of about 0.75 in log-odds.
    expect(recallCutFloor([0.1, 0.05], { ...defaults, relativeFloor: 1 })).toBe(0.1);
    expect(recallCutFloor([0.5, 0.32], { ...defaults, relativeFloor: 1 })).toBe(0.5);
    expect(recallCutFloor([0.1, 0.07], { ...defaults, relativeFloor: 1 })).toBe(0.02);
  });

  it("ignores candidates below the absolute floor when looking for the knee", () => {
    // 0.03 to 0.001 is a steep fall, but 0.001 is below the floor anyway: no knee among the rest.
    expect(recallCutFloor([0.04, 0.03, 0.001], defaults)).toBe(0.02);
  });

  it("takes candidates in any order and never returns less than the absolute floor", () => {
    expect(recallCutFloor([0.02, 0.9, 0.03], defaults)).toBe(0.45);
    expect(recallCutFloor([], defaults)).toBe(0.02);
    expect(recallCutFloor([0.01], { ...defaults, minScore: 0.3 })).toBe(0.3);
  });

  it("turns the knee off with an infinite gap", () => {
    expect(recallCutFloor([0.9, 0.01, 0.02, 0.03], { ...defaults, kneeGap: Infinity })).toBe(0.02);
  });
});
