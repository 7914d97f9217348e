/**
 * `POST /v1/recall`: the memories relevant to a message, re-ranked by the recall score and packed
 * into a token budget as one context text; counts an access for each memory it returns.
 */
import { estimateTokens } from "../../tokens/estimate-tokens.js";
import { formatContextLine, packContext } from "../../tokens/pack-context.js";
import {
  recallKneeGapOf,
  recallMinScoreOf,
  recallRelativeFloorOf,
} from "../model/memory-service-options.js";
import { parseInput } from "../model/parse-input.js";
import { recallInputSchema } from "../model/schemas.js";
import { recallCutFloor } from "../model/recall-cut.js";
import { scoreMemory } from "../model/scoring.js";
import type { ServiceContext } from "../service-context.js";
import type { Memory, RecallFactors, RecallItem, RecallResult } from "../model/types.js";
import { rankedFilter } from "./ranked-filter.js";

/**
 * How a recall treats what it returns.
 *
 * @example
 * await recall(context, { message: "deploys?" }, { countAccesses: false }); // a read-only key
 */
export interface RecallOptions {
  /**
   * Whether the memories returned count as accessed (access count, last access; default true).
   * A read-only key's recall changes nothing, so it does not count them (issue 23).
   */
  readonly countAccesses?: boolean;
}

interface Candidate {
  readonly memory: Memory;
  readonly similarity: number;
  readonly score: number;
  readonly factors: RecallFactors;
}

/**
 * Embeds the message, takes the engine's `recallCandidates` best hits of at least the relevance
 * floor (the request's `min_score`, else `recallCutFloor`: the configured `recall.min_score`
 * raised to the hits' knee, a clear fall in relevance, when they have one), scores them (`scoreMemory`:
 * relevance, with recency, frequency, type, scope and confidence gated by it), packs the best
 * into `budget` tokens and counts an access for each one returned: exact in the engine at once,
 * written to the store behind the answer (the access write-behind). `items: true` adds the
 * chosen memories; `explain: true` adds their factors and what the floor and the budget cut.
 *
 * @example
 * const { context: text } = await recall(context, { message: "when do we deploy?", budget: 500 });
 */
export async function recall(
  context: ServiceContext,
  input: unknown,
  recallOptions: RecallOptions = {},
): Promise<RecallResult> {
  const { engine, options } = context;
  const body = parseInput(recallInputSchema, input);
  const vector = await context.embedder.embedQuery(body.message);
  const nowMs = context.nowMs();
  const all = (
    await engine.query({
      text: body.message,
      vector,
      topK: options.recallCandidates,
      filter: rankedFilter(body),
      nowMs,
    })
  ).filter((hit) => hit.relevance > 0);
  // A request's own floor is taken as it is; the default one rises to the candidates' knee.
  const minScore =
    body.min_score ??
    recallCutFloor(
      all.map((hit) => hit.relevance),
      {
        minScore: recallMinScoreOf(options),
        relativeFloor: recallRelativeFloorOf(options),
        kneeGap: recallKneeGapOf(options),
      },
    );
  const hits = all.filter((hit) => hit.relevance >= minScore);
  const scoring = {
    nowMs,
    project: body.project,
    halfLifeHours: options.halfLifeHours,
    weights: options.weights,
  };
  const candidates: Candidate[] = hits.map((hit) => {
    const { score, factors } = scoreMemory(hit.memory, hit.relevance, scoring);
    const { similarity: relevance, ...boosts } = factors;
    return {
      memory: hit.memory,
      similarity: hit.relevance,
      score,
      factors: {
        lexical: hit.lexical ?? 0,
        semantic: hit.semantic ?? 0,
        neighbour: hit.neighbour ?? 0,
        relevance,
        ...boosts,
      },
    };
  });
  candidates.sort(byScore);
  const packed = packContext(
    candidates.map((c) => ({ label: c.memory.type, text: c.memory.content })),
    body.budget,
  );
  const returned = packed.included.flatMap((index) => candidates[index]?.memory.id ?? []);
  // Exact in the engine at once; written to the store behind the answer.
  if (recallOptions.countAccesses !== false) {
    context.accesses.mark(await engine.recordAccess(returned, nowMs));
  }
  const answer = {
    context: packed.context,
    memory_count: packed.included.length,
    tokens_used: packed.tokens_used,
  };
  const explain = body.explain === true;
  if (body.items !== true && !explain) return answer;
  const items: RecallItem[] = packed.included.flatMap((index) => {
    const c = candidates[index];
    return c === undefined ? [] : [{ ...summary(c), ...(explain ? { factors: c.factors } : {}) }];
  });
  if (!explain) return { ...answer, items };
  const included = new Set(packed.included);
  const cut = candidates.flatMap((c, index) =>
    included.has(index)
      ? []
      : [
          {
            ...summary(c),
            tokens: estimateTokens(formatContextLine(c.memory.type, c.memory.content)),
            factors: c.factors,
          },
        ],
  );
  const candidatesFound = all.length;
  return {
    ...answer,
    items,
    explain: {
      min_score: minScore,
      candidates: candidatesFound,
      below_min_score: candidatesFound - hits.length,
      cut_by_budget: cut,
    },
  };
}

function summary(c: Candidate): Omit<RecallItem, "factors"> {
  const { id, type, scope, created_at } = c.memory;
  return { id, type, scope, created_at, score: c.score };
}

/** Highest score first; ties by similarity, then id, so equal inputs give equal contexts. */
function byScore(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    b.similarity - a.similarity ||
    (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0)
  );
}
