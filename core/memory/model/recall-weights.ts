import type { RecallWeights } from "./types.js";

/** The factors of the recall score, in the order they are reported. */
export const RECALL_FACTORS = [
  "similarity",
  "recency",
  "frequency",
  "type",
  "scope",
  "confidence",
] as const satisfies readonly (keyof RecallWeights)[];

/**
 * The decided default weights: similarity dominates, the other factors break ties and nudge.
 *
 * @example
 * scoreMemory(memory, similarity, { ...context, weights: DEFAULT_RECALL_WEIGHTS });
 */
export const DEFAULT_RECALL_WEIGHTS: RecallWeights = Object.freeze({
  similarity: 0.5,
  recency: 0.15,
  frequency: 0.1,
  type: 0.1,
  scope: 0.05,
  confidence: 0.1,
});

/** How far from 1 the sum of the weights may be (configs are written by hand in decimals). */
export const WEIGHT_SUM_TOLERANCE = 0.01;

/**
 * Every problem with a set of recall weights, one readable line each naming the config key
 * (`recall.weights.<factor>`); an empty array when they are valid. Each weight must be a number
 * in [0, 1] and together they must sum to 1 (± 0.01), so a score stays in [0, 1].
 *
 * @example
 * validateRecallWeights({ ...DEFAULT_RECALL_WEIGHTS, similarity: 1.5 });
 * // ["recall.weights.similarity: expected a number between 0 and 1, got 1.5",
 * //  "recall.weights: expected the weights to sum to 1 (± 0.01), got 2"]
 */
export function validateRecallWeights(weights: RecallWeights): string[] {
  const problems: string[] = [];
  let sum = 0;
  let allNumbers = true;
  for (const factor of RECALL_FACTORS) {
    const weight: unknown = (weights as unknown as Partial<Record<string, unknown>>)[factor];
    if (typeof weight !== "number" || !Number.isFinite(weight)) {
      allNumbers = false;
      problems.push(
        `recall.weights.${factor}: expected a number between 0 and 1, got ${String(weight)}`,
      );
      continue;
    }
    if (weight < 0 || weight > 1) {
      problems.push(`recall.weights.${factor}: expected a number between 0 and 1, got ${weight}`);
    }
    sum += weight;
  }
  if (allNumbers && Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
    problems.push(
      `recall.weights: expected the weights to sum to 1 (± ${WEIGHT_SUM_TOLERANCE}), got ${roundForMessage(sum)}`,
    );
  }
  return problems;
}

/** Hides float noise such as 1.0000000000000002 in messages. */
function roundForMessage(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
