import type { Memory, MemoryScope, MemoryType, RecallWeights } from "./types.js";

/**
 * How binding each kind of memory is: rules first, preferences last. The decided table (steps of
 * about 1/15 on a 0..1 scale).
 */
export const TYPE_FACTORS: Readonly<Record<MemoryType, number>> = Object.freeze({
  rule: 1.0,
  procedure: 0.867,
  fact: 0.667,
  episode: 0.533,
  preference: 0.467,
});

/** Scope factor when the request names no project: every memory is equally in scope. */
export const SCOPE_FACTOR_NEUTRAL = 0.667;
/** Scope factor of a `project` memory of the requested project. */
export const SCOPE_FACTOR_SAME_PROJECT = 1.0;
/** Scope factor of a `permanent` memory when a project is requested (global rules still apply). */
export const SCOPE_FACTOR_PERMANENT = 0.667;
/** Scope factor of anything else when a project is requested. */
export const SCOPE_FACTOR_OTHER = 0.533;

/** What a score depends on besides the memory itself. */
export interface ScoringContext {
  /** The current instant in ms since the epoch. */
  readonly nowMs: number;
  /** The requested project; `""` means none. */
  readonly project: string;
  readonly halfLifeHours: number;
  readonly weights: RecallWeights;
}

/** A recall score and its factors, each in [0, 1] (kept for tests and debugging). */
export interface MemoryScore {
  readonly score: number;
  readonly factors: Readonly<Record<keyof RecallWeights, number>>;
}

const HOUR_MS = 3_600_000;

/**
 * The relevance factor: the index's calibrated relevance (or a cosine) clamped to [0, 1].
 *
 * @example
 * similarityFactor(-0.2); // 0
 */
export function similarityFactor(similarity: number): number {
  return Number.isNaN(similarity) ? 0 : Math.min(1, Math.max(0, similarity));
}

/**
 * `0.5 ^ (hours since last access / half-life)`. A last access in the future (a clock moved
 * back) counts as now, so the factor never exceeds 1.
 *
 * @example
 * recencyFactor(Date.parse("2026-11-14T10:00:00Z"), Date.parse("2026-11-21T10:00:00Z"), 168); // 0.5
 */
export function recencyFactor(
  lastAccessedMs: number,
  nowMs: number,
  halfLifeHours: number,
): number {
  const hours = Math.max(0, nowMs - lastAccessedMs) / HOUR_MS;
  return 0.5 ** (hours / halfLifeHours);
}

/**
 * `min(1, log2(access_count + 1) / 10)`: grows fast at first, saturates at 1023 accesses.
 *
 * @example
 * frequencyFactor(3); // 0.2
 */
export function frequencyFactor(accessCount: number): number {
  return Math.min(1, Math.log2(Math.max(0, accessCount) + 1) / 10);
}

/**
 * How well a memory's scope fits the request: with no project all memories score 0.667; with a
 * project, that project's `project` memories 1.0, `permanent` ones 0.667, anything else 0.533.
 *
 * @example
 * scopeFactor("project", "billing", "billing"); // 1
 */
export function scopeFactor(scope: MemoryScope, memoryProject: string, project: string): number {
  if (project === "") return SCOPE_FACTOR_NEUTRAL;
  if (scope === "project" && memoryProject === project) return SCOPE_FACTOR_SAME_PROJECT;
  if (scope === "permanent") return SCOPE_FACTOR_PERMANENT;
  return SCOPE_FACTOR_OTHER;
}

/**
 * The recall score of a memory: the weighted sum of six factors in [0, 1] (similarity, recency,
 * frequency, type, scope, confidence) with every factor but similarity gated by it:
 * `w_sim · r + r · (w_rec · recency + w_freq · frequency + w_type · type + w_scope · scope +
 * w_conf · confidence)`, `r` the calibrated relevance. The other factors re-rank relevant
 * memories (by up to the share of weight they carry) but never lift an irrelevant one: a memory
 * of relevance 0 scores 0 whatever its age, use, type, scope or confidence. With weights summing
 * to 1 the score is in [0, r].
 *
 * @example
 * const { score } = scoreMemory(memory, 0.8, {
 *   nowMs: clock.now().getTime(),
 *   project: "",
 *   halfLifeHours: 168,
 *   weights: DEFAULT_RECALL_WEIGHTS,
 * });
 */
export function scoreMemory(
  memory: Pick<
    Memory,
    "type" | "scope" | "project" | "confidence" | "last_accessed" | "access_count"
  >,
  similarity: number,
  context: ScoringContext,
): MemoryScore {
  const factors = {
    similarity: similarityFactor(similarity),
    recency: recencyFactor(Date.parse(memory.last_accessed), context.nowMs, context.halfLifeHours),
    frequency: frequencyFactor(memory.access_count),
    type: TYPE_FACTORS[memory.type],
    scope: scopeFactor(memory.scope, memory.project, context.project),
    confidence: Math.min(1, Math.max(0, memory.confidence)),
  };
  const w = context.weights;
  const boosts =
    w.recency * factors.recency +
    w.frequency * factors.frequency +
    w.type * factors.type +
    w.scope * factors.scope +
    w.confidence * factors.confidence;
  const score = w.similarity * factors.similarity + factors.similarity * boosts;
  return { score, factors };
}
