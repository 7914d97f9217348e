/** `POST /v1/search`: the memories most relevant to a message, best first, with their relevance. */
import { parseInput } from "../model/parse-input.js";
import { queryText } from "../model/query-text.js";
import { searchInputSchema } from "../model/schemas.js";
import type { ServiceContext } from "../service-context.js";
import type { SearchResult } from "../model/types.js";
import { rankedFilter } from "./ranked-filter.js";

/**
 * Embeds the message and returns the engine's `limit` best hits of at least `min_score`
 * calibrated relevance (no floor by default), as summaries (`tags` and `project` only when
 * `include` asks for them; `factors` only with `explain: true`). Unlike recall it neither
 * re-scores nor counts accesses.
 *
 * @example
 * await search(context, { message: "deploys", limit: 5, include: ["tags"] });
 */
export async function search(context: ServiceContext, input: unknown): Promise<SearchResult> {
  const body = parseInput(searchInputSchema, input);
  const text = queryText(body.message);
  const vector = await context.embedder.embedQuery(text);
  const hits = await context.engine.query({
    text,
    vector,
    topK: body.limit,
    filter: rankedFilter(body),
    nowMs: context.nowMs(),
  });
  const include = new Set(body.include);
  return {
    results: hits.flatMap(({ memory, relevance, lexical, semantic, neighbour }) => {
      if (relevance < (body.min_score ?? 0)) return [];
      const { id, content, type, scope, confidence } = memory;
      const summary = {
        id,
        content,
        type,
        scope,
        confidence,
        ...(include.has("tags") ? { tags: memory.tags } : {}),
        ...(include.has("project") ? { project: memory.project } : {}),
      };
      const factors = {
        lexical: lexical ?? 0,
        semantic: semantic ?? 0,
        neighbour: neighbour ?? 0,
        relevance,
      };
      return [{ memory: summary, score: relevance, ...(body.explain === true ? { factors } : {}) }];
    }),
  };
}
