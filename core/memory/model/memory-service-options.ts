import { DEFAULT_RECALL_WEIGHTS, validateRecallWeights } from "./recall-weights.js";
import { DEFAULT_RECALL_KNEE_GAP } from "./recall-cut.js";
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
  recallMinScore: 0.02,
  recallRelativeFloor: 0.5,
});

/**
 * Recall's default relevance floor: a 2 % chance that the memory answers the message on the
 * calibration's data. Chosen with {@link DEFAULT_RECALL_RELATIVE_FLOOR} on the realistic-store
 * benchmark (docs/performance.md, "Recall quality"), where it keeps answers in 94 % of contexts.
 */
export const DEFAULT_RECALL_MIN_SCORE = 0.02;

/**
 * Recall's default relative floor: when the candidates show a knee (a clear fall in relevance,
 * see `recall-cut.ts`), those above it and those of at least half the best candidate's relevance
 * are kept (on the realistic store: context precision 0.52 without a cut, 0.82 with it).
 */
export const DEFAULT_RECALL_RELATIVE_FLOOR = 0.5;

/**
 * The relative floor recall applies.
 *
 * @example
 * recallRelativeFloorOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0.5
 */
export function recallRelativeFloorOf(options: MemoryServiceOptions): number {
  return options.recallRelativeFloor ?? DEFAULT_RECALL_RELATIVE_FLOOR;
}

/**
 * The knee gap recall's default cut uses (see {@link DEFAULT_RECALL_KNEE_GAP}).
 *
 * @example
 * recallKneeGapOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0.7
 */
export function recallKneeGapOf(options: MemoryServiceOptions): number {
  return options.recallKneeGap ?? DEFAULT_RECALL_KNEE_GAP;
}

/**
 * Recall's default context neighbours: none. With 2 (the memories written just before and after
 * each recalled episode, in its project and scope, within an hour) a LoCoMo context holds an
 * evidence turn for 0.83 of the questions instead of 0.67, but the realistic store's context
 * precision falls from 0.80 to 0.75: its unrelated working notes written at the same instant
 * come along (docs/performance.md, "Recall quality"). So it is for stores of conversation turns,
 * set by the operator (`recall.context_neighbours`) or asked for per request.
 */
export const DEFAULT_RECALL_CONTEXT_NEIGHBOURS = 0;

/** The most context neighbours a side `recallContextNeighbours` may ask for. */
export const MAX_RECALL_CONTEXT_NEIGHBOURS = 10;

/**
 * How many store neighbours each side recall adds around a recalled episode.
 *
 * @example
 * recallContextNeighboursOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0
 */
export function recallContextNeighboursOf(options: MemoryServiceOptions): number {
  return options.recallContextNeighbours ?? DEFAULT_RECALL_CONTEXT_NEIGHBOURS;
}

/**
 * The relevance floor recall applies when a request names none.
 *
 * @example
 * recallMinScoreOf(DEFAULT_MEMORY_SERVICE_OPTIONS); // 0.02
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
  const unitInterval = (key: string, value: unknown): void => {
    if (
      value !== undefined &&
      (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1)
    ) {
      problems.push(`${key}: expected a number between 0 and 1, got ${String(value)}`);
    }
  };
  unitInterval("recall.min_score", options.recallMinScore);
  unitInterval("recall.relative_floor", options.recallRelativeFloor);
  unitInterval("retrieval.neighbour_lift", options.neighbourLift);
  const around: unknown = options.recallContextNeighbours;
  if (
    around !== undefined &&
    (typeof around !== "number" ||
      !Number.isInteger(around) ||
      around < 0 ||
      around > MAX_RECALL_CONTEXT_NEIGHBOURS)
  ) {
    problems.push(
      `recall.context_neighbours: expected an integer between 0 and ${MAX_RECALL_CONTEXT_NEIGHBOURS}, got ${String(around)}`,
    );
  }
  const kneeGap: unknown = options.recallKneeGap;
  if (kneeGap !== undefined && (typeof kneeGap !== "number" || !(kneeGap >= 0))) {
    problems.push(`recall.knee_gap: expected a number of at least 0, got ${String(kneeGap)}`);
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
