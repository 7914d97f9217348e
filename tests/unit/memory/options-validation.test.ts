import { describe, expect, it } from "vitest";
import {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  DEFAULT_RECALL_WEIGHTS,
  MemoryService,
  validateMemoryServiceOptions,
  validateRecallWeights,
} from "../../../core/memory/index.js";
import type { RecallWeights } from "../../../core/memory/index.js";
import { FakeEmbedder, InMemoryVectorStore, ManualClock } from "../../../core/testing/index.js";

describe("validateRecallWeights", () => {
  it("accepts the defaults, which sum to exactly 1", () => {
    expect(validateRecallWeights(DEFAULT_RECALL_WEIGHTS)).toEqual([]);
    expect(DEFAULT_RECALL_WEIGHTS).toEqual({
      similarity: 0.5,
      recency: 0.15,
      frequency: 0.1,
      type: 0.1,
      scope: 0.05,
      confidence: 0.1,
    });
  });

  it("accepts a sum within ± 0.01 of 1 and rejects one just outside", () => {
    expect(validateRecallWeights({ ...DEFAULT_RECALL_WEIGHTS, similarity: 0.509 })).toEqual([]);
    expect(validateRecallWeights({ ...DEFAULT_RECALL_WEIGHTS, similarity: 0.491 })).toEqual([]);
    expect(validateRecallWeights({ ...DEFAULT_RECALL_WEIGHTS, similarity: 0.52 })).toEqual([
      "recall.weights: expected the weights to sum to 1 (± 0.01), got 1.02",
    ]);
  });

  it("reports every problem at once, naming each weight", () => {
    const weights: RecallWeights = {
      similarity: 1.5,
      recency: -0.1,
      frequency: 0.1,
      type: 0.1,
      scope: 0.05,
      confidence: 0.1,
    };
    expect(validateRecallWeights(weights)).toEqual([
      "recall.weights.similarity: expected a number between 0 and 1, got 1.5",
      "recall.weights.recency: expected a number between 0 and 1, got -0.1",
      "recall.weights: expected the weights to sum to 1 (± 0.01), got 1.75",
    ]);
  });

  it("names a missing or non-numeric weight", () => {
    const weights = { ...DEFAULT_RECALL_WEIGHTS, type: "high" } as unknown as RecallWeights;
    expect(validateRecallWeights(weights)).toEqual([
      "recall.weights.type: expected a number between 0 and 1, got high",
    ]);
  });
});

describe("memory service options", () => {
  it("defaults to 720 h ttl, 24 h session idle, 50 candidates, a 168 h half-life and the floors", () => {
    expect(DEFAULT_MEMORY_SERVICE_OPTIONS).toEqual({
      ttlHours: 720,
      sessionIdleHours: 24,
      recallCandidates: 50,
      halfLifeHours: 168,
      weights: DEFAULT_RECALL_WEIGHTS,
      recallMinScore: 0.02,
      recallRelativeFloor: 0.5,
    });
    expect(validateMemoryServiceOptions(DEFAULT_MEMORY_SERVICE_OPTIONS)).toEqual([]);
  });

  it("rejects a negative or non-numeric knee gap and accepts an infinite one (issue 22)", () => {
    const base = DEFAULT_MEMORY_SERVICE_OPTIONS;
    expect(validateMemoryServiceOptions({ ...base, recallKneeGap: -1 })).toEqual([
      "recall.knee_gap: expected a number of at least 0, got -1",
    ]);
    expect(validateMemoryServiceOptions({ ...base, recallKneeGap: Infinity })).toEqual([]);
  });

  it("names recall.min_score when the floor is out of range (issue 22)", () => {
    expect(
      validateMemoryServiceOptions({ ...DEFAULT_MEMORY_SERVICE_OPTIONS, recallMinScore: 1.5 }),
    ).toEqual(["recall.min_score: expected a number between 0 and 1, got 1.5"]);
  });

  it("lists every invalid option by its config key", () => {
    expect(
      validateMemoryServiceOptions({
        ttlHours: 0,
        sessionIdleHours: -1,
        recallCandidates: 2.5,
        halfLifeHours: Number.NaN,
        weights: { ...DEFAULT_RECALL_WEIGHTS, scope: 2 },
      }),
    ).toEqual([
      "memory.ttl_hours: expected a positive number, got 0",
      "memory.session_idle_hours: expected a positive number, got -1",
      "recall.half_life_hours: expected a positive number, got NaN",
      "recall.candidates: expected an integer between 1 and 1000, got 2.5",
      "recall.weights.scope: expected a number between 0 and 1, got 2",
      "recall.weights: expected the weights to sum to 1 (± 0.01), got 2.95",
    ]);
  });

  it("makes the service constructor fail with config_invalid listing the problems", () => {
    const make = () =>
      new MemoryService({
        store: new InMemoryVectorStore(),
        embedder: new FakeEmbedder(),
        clock: new ManualClock(),
        options: { recallCandidates: 0, weights: { ...DEFAULT_RECALL_WEIGHTS, recency: 0.5 } },
      });
    expect(make).toThrow(
      expect.objectContaining({
        code: "config_invalid",
        message:
          "recall.candidates: expected an integer between 1 and 1000, got 0\n" +
          "recall.weights: expected the weights to sum to 1 (± 0.01), got 1.35",
      }),
    );
  });

  it("fills options the caller leaves out with the defaults", () => {
    const service = new MemoryService({
      store: new InMemoryVectorStore(),
      embedder: new FakeEmbedder(),
      clock: new ManualClock(),
      options: { ttlHours: 1 },
    });
    expect(service.options).toEqual({ ...DEFAULT_MEMORY_SERVICE_OPTIONS, ttlHours: 1 });
  });
});
