import { DEFAULT_RECALL_WEIGHTS, validateRecallWeights } from "./recall-weights.js";
import type { MemoryServiceOptions } from "./types.js";

/**
 * The decided defaults: `ttl` memories live 720 h (30 days), `session` memories expire after 24 h
 * without access, recall re-ranks the 50 most similar candidates, recency halves every 168 h
 * (a week), and recall's relevance floor is {@link DEFAULT_RECALL_MIN_SCORE}.
 *
 * @example
 * new MemoryService({ store, embedder, clock, options: { ...DEFAULT_MEMORY_SERVICE_OPTIONS, ttlHours: 48 } });
 */
export const DEFAULT_MEMORY_SERVICE_OPTIONS: MemoryServiceOptions = Object.freeze({
  ttlHours: 720,
  sessionIdleHours: 24,
  recallCandidates: 50,
  halfLifeHours: 168,
  weights: DEFAULT_RECALL_WEIGHTS,
  recallMinScore: 0.3,
});

/**
 * Recall's default relevance floor: chosen on the realistic-store and LoCoMo benchmarks
 * (docs/performance.md, "Recall quality"): below it the calibrated relevance mostly marks
 * memories that do not answer the message.
 */
export const DEFAULT_RECALL_MIN_SCORE = 0.3;

/**
 * The relevance floor recall applies when a request names none.
 *
 * @example
 * recallMinScoreOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0.3
 */
export function recallMinScoreOf(options: MemoryServiceOptions): number {
  return options.recallMinScore ?? DEFAULT_RECALL_MIN_SCORE;
}

/**
 * Every problem with memory service options, one line each naming the config key as the YAML
 * file spells it (`memory.ttl_hours`, `recall.candidates`, `recall.weights.<factor>`, …); empty
 * when valid. The shell's config loader reports these together with its own problems.
 *
 * @example
 * validateMemoryServiceOptions({ ...DEFAULT_MEMORY_SERVICE_OPTIONS, recallCandidates: 0 });
 * // ["recall.candidates: expected an integer between 1 and 1000, got 0"]
 */
export function validateMemoryServiceOptions(options: MemoryServiceOptions): string[] {
  const problems: string[] = [];
  const positive = (key: string, value: unknown): void => {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      problems.push(`${key}: expected a positive number, got ${String(value)}`);
    }
  };
  positive("memory.ttl_hours", options.ttlHours);
  positive("memory.session_idle_hours", options.sessionIdleHours);
  positive("recall.half_life_hours", options.halfLifeHours);
  const candidates: unknown = options.recallCandidates;
  if (
    typeof candidates !== "number" ||
    !Number.isInteger(candidates) ||
    candidates < 1 ||
    candidates > MAX_RECALL_CANDIDATES
  ) {
    problems.push(
      `recall.candidates: expected an integer between 1 and ${MAX_RECALL_CANDIDATES}, got ${String(candidates)}`,
    );
  }
  const floor: unknown = options.recallMinScore;
  if (
    floor !== undefined &&
    (typeof floor !== "number" || !Number.isFinite(floor) || floor < 0 || floor > 1)
  ) {
    problems.push(`recall.min_score: expected a number between 0 and 1, got ${String(floor)}`);
  }
  if (typeof options.weights !== "object" || options.weights === null) {
    problems.push(
      `recall.weights: expected an object of six weights, got ${String(options.weights)}`,
    );
  } else {
    problems.push(...validateRecallWeights(options.weights));
  }
  return problems;
}

/** Re-ranking is per request and in memory: keep the candidate set bounded. */
export const MAX_RECALL_CANDIDATES = 1000;
