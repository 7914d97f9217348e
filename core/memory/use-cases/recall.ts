/**
 * `POST /v1/recall`: the memories relevant to a message, re-ranked by the recall score and packed
 * into a token budget as one context text; counts an access for each memory it returns.
 */
import { packContext } from "../../tokens/pack-context.js";
import { parseInput } from "../model/parse-input.js";
import { recallInputSchema } from "../model/schemas.js";
import { scoreMemory } from "../model/scoring.js";
import type { ServiceContext } from "../service-context.js";
import type { Memory, RecallResult } from "../model/types.js";
import { rankedFilter } from "./ranked-filter.js";

interface Candidate {
  readonly memory: Memory;
  readonly similarity: number;
  readonly score: number;
}

/**
 * Embeds the message, takes the engine's `recallCandidates` best hits (at least `min_score`
 * relevant), scores them (`scoreMemory`: similarity, recency, frequency, type, scope), packs the
 * best into `budget` tokens and counts an access for each one returned: exact in the engine at
 * once, written to the store behind the answer (the access write-behind).
 *
 * @example
 * const { context: text } = await recall(context, { message: "when do we deploy?", budget: 500 });
 */
export async function recall(context: ServiceContext, input: unknown): Promise<RecallResult> {
  const { engine, options } = context;
  const body = parseInput(recallInputSchema, input);
  const vector = await context.embedder.embedQuery(body.message);
  const nowMs = context.nowMs();
  const hits = (
    await engine.query({
      text: body.message,
      vector,
      topK: options.recallCandidates,
      filter: rankedFilter(body),
      nowMs,
    })
  ).filter((hit) => hit.relevance >= (body.min_score ?? 0));
  const scoring = {
    nowMs,
    project: body.project,
    halfLifeHours: options.halfLifeHours,
    weights: options.weights,
  };
  const candidates: Candidate[] = hits.map((hit) => ({
    memory: hit.memory,
    similarity: hit.relevance,
    // The similarity factor is the index's relevance (lexical and vector evidence fused).
    score: scoreMemory(hit.memory, hit.relevance, scoring).score,
  }));
  candidates.sort(byScore);
  const packed = packContext(
    candidates.map((c) => ({ label: c.memory.type, text: c.memory.content })),
    body.budget,
  );
  const returned = packed.included.flatMap((index) => candidates[index]?.memory.id ?? []);
  // Exact in the engine at once; written to the store behind the answer.
  context.accesses.mark(await engine.recordAccess(returned, nowMs));
  return {
    context: packed.context,
    memory_count: packed.included.length,
    tokens_used: packed.tokens_used,
  };
}

/** Highest score first; ties by similarity, then id, so equal inputs give equal contexts. */
function byScore(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    b.similarity - a.similarity ||
    (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0)
  );
}
