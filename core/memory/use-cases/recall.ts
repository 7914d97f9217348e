/**
 * `POST /v1/recall`: the memories relevant to a message, re-ranked by the recall score and packed
 * into a token budget as one context text; counts an access for each memory it returns.
 */
import { estimateTokens } from "../../tokens/estimate-tokens.js";
import { formatContextLine, packContext, type ContextEntry } from "../../tokens/pack-context.js";
import {
  recallContextNeighboursOf,
  recallKneeGapOf,
  recallMinScoreOf,
  recallRelativeFloorOf,
} from "../model/memory-service-options.js";
import { parseInput } from "../model/parse-input.js";
import { queryText } from "../model/query-text.js";
import { recallInputSchema } from "../model/schemas.js";
import { recallCutFloor } from "../model/recall-cut.js";
import { scoreMemory } from "../model/scoring.js";
import type { EngineHit } from "../engine/read-model.js";
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
  /** The recalled episode this one is in the context around (see `withContext`). */
  readonly contextOf?: string;
}

/**
 * Embeds the message, takes the engine's `recallCandidates` best hits of at least the relevance
 * floor (the request's `min_score`, else `recallCutFloor`: the configured `recall.min_score`
 * raised to the hits' knee, a clear fall in relevance, when they have one), scores them (`scoreMemory`:
 * relevance, with recency, frequency, type, scope and confidence gated by it), packs the best
 * into `budget` tokens (then, when asked, the episodes written around each recalled episode:
 * `context_neighbours`, else `recall.context_neighbours` without a `min_score`) and counts an
 * access for each one returned: exact in the engine at once,
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
  const text = queryText(body.message);
  const vector = await context.embedder.embedQuery(text);
  const nowMs = context.nowMs();
  const all = (
    await engine.query({
      text,
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
  const candidates: Candidate[] = hits.map((hit) => candidateOf(hit, scoring));
  candidates.sort(byScore);
  const ranked = packContext(candidates.map(lineOf), body.budget);
  const chosen = ranked.included.flatMap((index) => candidates[index] ?? []);
  const around =
    body.context_neighbours ??
    (body.min_score === undefined ? recallContextNeighboursOf(options) : 0);
  const neighbours =
    around > 0
      ? await contextNeighbours(context, chosen, { all, hits, around, body, scoring })
      : [];
  const lines = neighbours.length === 0 ? chosen : withNeighbours(chosen, neighbours, body.budget);
  // Indexes into `lines`: the ranked packing's context as it is when no neighbour came.
  const packed =
    lines === chosen
      ? { ...ranked, included: chosen.map((_, index) => index) }
      : packContext(lines.map(lineOf), body.budget);
  const returned = packed.included.flatMap((index) => lines[index]?.memory.id ?? []);
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
    const c = lines[index];
    return c === undefined
      ? []
      : [
          {
            ...summary(c),
            ...(c.contextOf === undefined ? {} : { context_of: c.contextOf }),
            ...(explain ? { factors: c.factors } : {}),
          },
        ];
  });
  if (!explain) return { ...answer, items };
  const included = new Set(ranked.included);
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

type Scoring = Parameters<typeof scoreMemory>[2];

function candidateOf(hit: EngineHit, scoring: Scoring): Candidate {
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
}

function lineOf(c: Candidate): ContextEntry {
  return { label: c.memory.type, text: c.memory.content };
}

/** What {@link contextNeighbours} needs of the recall besides the chosen memories. */
interface ContextRequest {
  /** Every candidate (relevance > 0) and those of them that passed the floor. */
  readonly all: readonly EngineHit[];
  readonly hits: readonly EngineHit[];
  readonly around: number;
  readonly body: Parameters<typeof rankedFilter>[0];
  readonly scoring: Scoring;
}

/**
 * The episodes written up to `around` before and after each chosen episode (its store
 * neighbours: same project and scope, within an hour), earliest first, in the order of the
 * episodes they are around: the turns of its conversation that give it meaning. One that passed
 * the floor itself is left where the ranking put it (or out, when the budget cut it); one around
 * several chosen episodes comes once, with the first. Each is scored on its own relevance (0 when
 * it was not a candidate) and names the episode it is around.
 */
async function contextNeighbours(
  context: ServiceContext,
  chosen: readonly Candidate[],
  request: ContextRequest,
): Promise<Candidate[]> {
  const { all, hits, around, body, scoring } = request;
  const episodes = chosen.filter((c) => c.memory.type === "episode");
  if (episodes.length === 0) return [];
  const found = await context.engine.storeNeighbours?.(
    episodes.map((c) => c.memory.id),
    around,
    rankedFilter(body),
    scoring.nowMs,
  );
  const hitOf = new Map(all.map((hit) => [hit.memory.id, hit]));
  const taken = new Set(hits.map((hit) => hit.memory.id));
  return episodes.flatMap((anchor, i) =>
    (found?.[i] ?? []).flatMap((memory) => {
      if (memory.type !== "episode" || taken.has(memory.id)) return [];
      taken.add(memory.id);
      const hit = hitOf.get(memory.id) ?? { memory, relevance: 0, similarity: 0 };
      return [{ ...candidateOf(hit, scoring), contextOf: anchor.memory.id }];
    }),
  );
}

/**
 * The context's lines: the chosen memories, each recalled episode followed by those of its
 * neighbours that fit the budget after every chosen memory (the neighbours are packed in the
 * order given, after the chosen ones, so they never push a chosen memory out).
 */
function withNeighbours(
  chosen: readonly Candidate[],
  neighbours: readonly Candidate[],
  budget: number,
): Candidate[] {
  const packed = packContext([...chosen, ...neighbours].map(lineOf), budget);
  const fitting = new Set(packed.included.map((index) => index - chosen.length));
  const byAnchor = new Map<string, Candidate[]>();
  neighbours.forEach((c, index) => {
    if (!fitting.has(index) || c.contextOf === undefined) return;
    const list = byAnchor.get(c.contextOf) ?? [];
    list.push(c);
    byAnchor.set(c.contextOf, list);
  });
  return chosen.flatMap((c) => [c, ...(byAnchor.get(c.memory.id) ?? [])]);
}
