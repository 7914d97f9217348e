import { describe, expect, it } from "vitest";
import {
  DEFAULT_RECALL_WEIGHTS,
  frequencyFactor,
  recencyFactor,
  scopeFactor,
  scoreMemory,
  similarityFactor,
  TYPE_FACTORS,
} from "../../../core/memory/index.js";
import type { Memory, RecallWeights } from "../../../core/memory/index.js";

const NOW = Date.parse("2026-11-21T10:00:00.000Z");
const HOUR = 3_600_000;

function memory(overrides: Partial<Memory> = {}): Memory {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    content: "x",
    type: "fact",
    scope: "session",
    tags: [],
    project: "",
    confidence: 1,
    created_at: new Date(NOW).toISOString(),
    updated_at: new Date(NOW).toISOString(),
    last_accessed: new Date(NOW).toISOString(),
    access_count: 0,
    expires_at: null,
    ...overrides,
  };
}

const context = { nowMs: NOW, project: "", halfLifeHours: 168, weights: DEFAULT_RECALL_WEIGHTS };

describe("recall score factors", () => {
  it("clamps cosine similarity to [0, 1]", () => {
    expect(similarityFactor(-0.4)).toBe(0);
    expect(similarityFactor(0.42)).toBe(0.42);
    expect(similarityFactor(1.0000001)).toBe(1);
  });

  it("halves recency every half-life and never exceeds 1 for a last access in the future", () => {
    expect(recencyFactor(NOW, NOW, 168)).toBe(1);
    expect(recencyFactor(NOW - 168 * HOUR, NOW, 168)).toBe(0.5);
    expect(recencyFactor(NOW - 336 * HOUR, NOW, 168)).toBe(0.25);
    expect(recencyFactor(NOW - 84 * HOUR, NOW, 168)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(recencyFactor(NOW + 5 * HOUR, NOW, 168)).toBe(1);
  });

  it("grows frequency as log2(n + 1) / 10 and caps it at 1", () => {
    expect(frequencyFactor(0)).toBe(0);
    expect(frequencyFactor(1)).toBe(0.1);
    expect(frequencyFactor(3)).toBe(0.2);
    expect(frequencyFactor(1023)).toBe(1);
    expect(frequencyFactor(100_000)).toBe(1);
  });

  it("ranks types rule > procedure > fact > episode > preference with the decided values", () => {
    expect(TYPE_FACTORS).toEqual({
      rule: 1,
      procedure: 0.867,
      fact: 0.667,
      episode: 0.533,
      preference: 0.467,
    });
  });

  it("scores scope 0.667 for everything without a project", () => {
    expect(scopeFactor("project", "billing", "")).toBe(0.667);
    expect(scopeFactor("permanent", "", "")).toBe(0.667);
    expect(scopeFactor("session", "x", "")).toBe(0.667);
  });

  it("scores scope 1 for the requested project's project memories, 0.667 for permanent, 0.533 otherwise", () => {
    expect(scopeFactor("project", "billing", "billing")).toBe(1);
    expect(scopeFactor("permanent", "other", "billing")).toBe(0.667);
    expect(scopeFactor("session", "billing", "billing")).toBe(0.533);
    expect(scopeFactor("project", "other", "billing")).toBe(0.533);
    expect(scopeFactor("ttl", "billing", "billing")).toBe(0.533);
  });
});

describe("scoreMemory", () => {
  it("is the weighted sum of the factors with every boost gated by relevance (issue 22)", () => {
    const m = memory({
      type: "rule",
      confidence: 0.8,
      access_count: 3,
      last_accessed: new Date(NOW - 168 * HOUR).toISOString(),
    });
    const { score, factors } = scoreMemory(m, 0.9, context);
    expect(factors).toEqual({
      similarity: 0.9,
      recency: 0.5,
      frequency: 0.2,
      type: 1,
      scope: 0.667,
      confidence: 0.8,
    });
    // 0.5·0.9 + 0.9·(0.15·0.5 + 0.10·0.2 + 0.10·1 + 0.05·0.667 + 0.10·0.8)
    expect(score).toBeCloseTo(0.45 + 0.9 * (0.075 + 0.02 + 0.1 + 0.03335 + 0.08), 12);
  });

  it("never lifts an irrelevant memory: relevance 0 scores 0 however fresh, used and binding (issue 22)", () => {
    const best = memory({ type: "rule", access_count: 5000, confidence: 1 });
    expect(scoreMemory(best, 0, { ...context, project: "" }).score).toBe(0);
    const relevantOld = memory({
      type: "preference",
      confidence: 0.5,
      last_accessed: new Date(NOW - 2000 * HOUR).toISOString(),
    });
    const weakFresh = memory({ type: "rule", access_count: 500, confidence: 1 });
    expect(scoreMemory(relevantOld, 0.8, context).score).toBeGreaterThan(
      scoreMemory(weakFresh, 0.45, context).score,
    );
  });

  it("uses configured weights: similarity alone when it carries all the weight", () => {
    const weights: RecallWeights = {
      similarity: 1,
      recency: 0,
      frequency: 0,
      type: 0,
      scope: 0,
      confidence: 0,
    };
    expect(scoreMemory(memory({ type: "preference" }), 0.37, { ...context, weights }).score).toBe(
      0.37,
    );
  });

  it("stays within [0, 1] at the extremes", () => {
    const best = scoreMemory(memory({ type: "rule", access_count: 5000 }), 1, context).score;
    const worst = scoreMemory(
      memory({ type: "preference", confidence: 0, last_accessed: "2000-01-01T00:00:00.000Z" }),
      -1,
      { ...context, project: "p" },
    ).score;
    expect(best).toBeCloseTo(1 - 0.05 * (1 - 0.667), 12);
    expect(worst).toBeGreaterThanOrEqual(0);
    expect(worst).toBeLessThan(0.1);
  });

  it("lets a rule outrank an equally similar preference", () => {
    const rule = scoreMemory(memory({ type: "rule" }), 0.7, context).score;
    const preference = scoreMemory(memory({ type: "preference" }), 0.7, context).score;
    expect(rule - preference).toBeCloseTo(0.7 * 0.1 * (1 - 0.467), 12);
  });

  it("lets a fresh memory outrank an equally similar one untouched for a month", () => {
    const fresh = scoreMemory(memory(), 0.6, context).score;
    const stale = scoreMemory(
      memory({ last_accessed: new Date(NOW - 720 * HOUR).toISOString() }),
      0.6,
      context,
    ).score;
    expect(fresh).toBeGreaterThan(stale);
    expect(fresh - stale).toBeCloseTo(0.6 * 0.15 * (1 - 0.5 ** (720 / 168)), 12);
  });

  it("keeps similarity dominant: 0.2 more similarity beats the largest type difference", () => {
    const similarPreference = scoreMemory(memory({ type: "preference" }), 0.9, context).score;
    const lessSimilarRule = scoreMemory(memory({ type: "rule" }), 0.7, context).score;
    expect(similarPreference).toBeGreaterThan(lessSimilarRule);
  });
});
