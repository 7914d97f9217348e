import * as v from "valibot";
import { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";

/**
 * Response bodies of the memory API as valibot schemas. Nothing validates responses at run time;
 * they exist so the OpenAPI document is generated from code next to the request schemas instead
 * of being written by hand, and tests can check answers against them.
 */

const isoInstant = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.description("ISO 8601 UTC with milliseconds"),
);

/**
 * A full Memory (`GET /v1/memories/{id}`).
 *
 * @example
 * v.is(memorySchema, await service.get(id)); // true
 */
export const memorySchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  content: v.string(),
  type: v.picklist(MEMORY_TYPES),
  scope: v.picklist(MEMORY_SCOPES),
  tags: v.array(v.string()),
  project: v.string(),
  confidence: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  created_at: isoInstant,
  updated_at: isoInstant,
  last_accessed: isoInstant,
  access_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  expires_at: v.nullable(isoInstant),
});

/**
 * Answer of `POST /v1/remember`.
 *
 * @example
 * v.is(rememberResultSchema, { id, stored: true, deduplicated: true }); // true
 */
export const rememberResultSchema = v.object({
  id: v.pipe(v.string(), v.uuid()),
  stored: v.boolean(),
  deduplicated: v.optional(v.literal(true)),
});

/**
 * Answer of `POST /v1/remember/batch`: one item per remembered body, in order.
 *
 * @example
 * v.is(rememberBatchResultSchema, { memories: [{ id, stored: true, deduplicated: false }] }); // true
 */
export const rememberBatchResultSchema = v.object({
  memories: v.array(
    v.object({
      id: v.pipe(v.string(), v.uuid()),
      stored: v.boolean(),
      deduplicated: v.boolean(),
    }),
  ),
});

const unit = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

const relevanceFactors = {
  lexical: v.pipe(unit, v.description("BM25+ over the most the message's terms could score")),
  semantic: v.pipe(
    unit,
    v.description("the cosine's rise above the message's mean cosine over the store"),
  ),
  neighbour: v.pipe(
    unit,
    v.description(
      "evidence lent by the memories written just before and after it in its project and scope (0 without lexical evidence of its own)",
    ),
  ),
  relevance: v.pipe(unit, v.description("the calibrated relevance the three give")),
};

const recallFactorsSchema = v.object({
  ...relevanceFactors,
  recency: unit,
  frequency: unit,
  type: unit,
  scope: unit,
  confidence: unit,
});

const recallItemEntries = {
  id: v.pipe(v.string(), v.uuid()),
  type: v.picklist(MEMORY_TYPES),
  scope: v.picklist(MEMORY_SCOPES),
  created_at: isoInstant,
  score: v.pipe(unit, v.description("recall score: relevance, with the other factors gated by it")),
};

/**
 * Answer of `POST /v1/recall`: the seed's three fields; `items` with `items: true` or
 * `explain: true`; `explain` with `explain: true`.
 *
 * @example
 * v.is(recallResultSchema, { context: "", memory_count: 0, tokens_used: 0 }); // true
 */
export const recallResultSchema = v.object({
  context: v.string(),
  memory_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  tokens_used: v.pipe(v.number(), v.integer(), v.minValue(0)),
  items: v.optional(
    v.pipe(
      v.array(
        v.object({
          ...recallItemEntries,
          context_of: v.optional(
            v.pipe(
              v.string(),
              v.uuid(),
              v.description(
                "the recalled episode this one was written next to: it is in the context as that one's surrounding turn (`context_neighbours`), not for its own relevance",
              ),
            ),
          ),
          factors: v.optional(recallFactorsSchema),
        }),
      ),
      v.description("the chosen memories, in context order"),
    ),
  ),
  explain: v.optional(
    v.object({
      min_score: v.pipe(unit, v.description("the relevance floor applied")),
      candidates: v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description("candidates of relevance above 0"),
      ),
      below_min_score: v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description("candidates the floor dropped"),
      ),
      cut_by_budget: v.pipe(
        v.array(
          v.object({
            ...recallItemEntries,
            tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
            factors: recallFactorsSchema,
          }),
        ),
        v.description("relevant memories the budget left out, best first"),
      ),
    }),
  ),
});

/**
 * Answer of `POST /v1/search`: memory subsets with their calibrated relevance score (and its
 * factors with `explain: true`).
 *
 * @example
 * v.is(searchResultSchema, { results: [] }); // true
 */
export const searchResultSchema = v.object({
  results: v.array(
    v.object({
      memory: v.object({
        id: v.pipe(v.string(), v.uuid()),
        content: v.string(),
        type: v.picklist(MEMORY_TYPES),
        scope: v.picklist(MEMORY_SCOPES),
        confidence: v.number(),
        tags: v.optional(v.array(v.string())),
        project: v.optional(v.string()),
      }),
      score: v.pipe(
        v.number(),
        v.description(
          "calibrated relevance in [0, 1] (lexical and semantic evidence fused, plus what its store neighbours lend, one fixed curve): comparable across queries and store sizes; 0.5 is about an even chance that the memory answers the message",
        ),
      ),
      factors: v.optional(v.object(relevanceFactors)),
    }),
  ),
});

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const valueCounts = (what: string) =>
  v.pipe(
    v.object({
      values: v.array(v.object({ value: v.string(), count })),
      other: v.pipe(count, v.description(`The sum of the counts of the ${what} not listed.`)),
      distinct: v.pipe(count, v.description(`How many distinct ${what} there are.`)),
    }),
    v.description(`With \`top\`: the \`top\` most frequent ${what}, most frequent first.`),
  );

/**
 * Answer of `GET /v1/stats`: every type and scope key, zeros included, of the memories passing
 * the filters; with `top`, also the most frequent projects and tags.
 *
 * @example
 * v.is(memoryStatsSchema, await service.stats()); // true
 */
export const memoryStatsSchema = v.object({
  total_memories: count,
  by_type: v.object(Object.fromEntries(MEMORY_TYPES.map((t) => [t, count]))),
  by_scope: v.object(Object.fromEntries(MEMORY_SCOPES.map((s) => [s, count]))),
  by_project: v.optional(valueCounts('projects ("" is no project)')),
  by_tag: v.optional(valueCounts("tags (a memory counts once under each of its tags)")),
});

/**
 * Answer of `DELETE /v1/memories/{id}`.
 *
 * @example
 * v.is(deleteResultSchema, { deleted: true }); // true
 */
export const deleteResultSchema = v.object({ deleted: v.boolean() });

/**
 * Answer of `GET /v1/memories`: one page of full memories and the cursor of the next.
 *
 * @example
 * v.is(listResultSchema, { memories: [], next_cursor: null }); // true
 */
export const listResultSchema = v.object({
  memories: v.array(memorySchema),
  next_cursor: v.pipe(
    v.nullable(v.string()),
    v.description("Pass as `cursor` for the next page; null on the last page."),
  ),
});

/**
 * Answer of `PATCH /v1/memories/{id}`: the memory as it is now, `deduplicated: true` (and
 * another id) when the change made it a duplicate that merged into an existing memory.
 *
 * @example
 * v.is(updateResultSchema, { ...memory, deduplicated: true }); // true
 */
export const updateResultSchema = v.object({
  ...memorySchema.entries,
  deduplicated: v.optional(v.literal(true)),
});

/**
 * Answer of `POST /v1/memories/delete`: `matched` only with `dry_run`.
 *
 * @example
 * v.is(deleteMatchingResultSchema, { deleted: 0, matched: 3 }); // true
 */
export const deleteMatchingResultSchema = v.object({
  deleted: count,
  matched: v.optional(count),
});

/**
 * Answer of `POST /v1/import`.
 *
 * @example
 * v.is(importResultSchema, { imported: 2, deduplicated: 0, rejected: [] }); // true
 */
export const importResultSchema = v.object({
  imported: count,
  deduplicated: count,
  rejected: v.array(v.object({ line: count, error: v.string() })),
  /** Only when a limit of the request (or a busy store) cut the import: every line up to `stored_through_line` was handled, none after it. */
  incomplete: v.optional(
    v.object({
      reason: v.picklist(["line_limit", "size_limit", "time_limit", "store_busy"]),
      stored_through_line: count,
      message: v.string(),
    }),
  ),
});
