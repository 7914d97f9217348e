import * as v from "valibot";
import { fitsNormalisedByLength } from "./normalised-length.js";
import { strictBody } from "./strict-body.js";
import { MAX_RECALL_CONTEXT_NEIGHBOURS } from "./memory-service-options.js";
import { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";

/**
 * Request bodies of the memory API as valibot schemas: the one definition that validates
 * requests (through {@link parseInput}) and that the HTTP shell turns into its OpenAPI document
 * with `@valibot/to-json-schema`. Unknown fields are rejected, with a suggestion when one is
 * close to a known field ({@link strictBody}). Every message is the "expected …" half of an
 * error; `describeIssues` adds the field name and what was received.
 */

/** What each field expects, in words; also used when a required field is missing. */
export const FIELD_EXPECTATIONS = Object.freeze({
  body: "expected a JSON object",
  content: "expected a non-empty string",
  message: "expected a non-empty string",
  type: `expected one of ${MEMORY_TYPES.map((t) => `"${t}"`).join(", ")}`,
  scope: `expected one of ${MEMORY_SCOPES.map((s) => `"${s}"`).join(", ")}`,
  tags: "expected an array of strings",
  tag: "expected a string",
  project: "expected a string",
  confidence: "expected a number between 0 and 1",
  ttl_seconds: "expected an integer from 1 to 3155760000 (seconds, at most 100 years)",
  budget: "expected an integer of at least 1 (tokens)",
  limit: "expected an integer between 1 and 1000",
  top: "expected an integer between 1 and 1000",
  id: "expected a UUID",
  memories: "expected an array of 1 to 1000 remember bodies",
  min_score: "expected a number between 0 and 1",
  include: 'expected an array of "tags", "project"',
  cursor: "expected the next_cursor of a previous answer",
  order: 'expected "newest" or "oldest"',
  created_after: "expected an ISO 8601 date or date-time",
  created_before: "expected an ISO 8601 date or date-time",
  q: "expected a string",
  all: "expected a boolean",
  dry_run: "expected a boolean",
  explain: "expected a boolean",
  items: "expected a boolean",
  context_neighbours: "expected an integer between 0 and 10",
});

/**
 * Longest `ttl_seconds`: 100 years. Bounded so the expiry is a representable date (2^53-1
 * seconds passed validation and then failed with "Invalid time value").
 */
export const MAX_TTL_SECONDS = 3_155_760_000;
/** Most memories in one `POST /v1/remember/batch`. */
export const MAX_REMEMBER_BATCH = 1000;

/** Largest `limit` of a search. */
export const MAX_SEARCH_LIMIT = 1000;
/** Default token budget of a recall. */
export const DEFAULT_RECALL_BUDGET = 2000;
/** Default number of search results. */
export const DEFAULT_SEARCH_LIMIT = 10;

const E = FIELD_EXPECTATIONS;

/**
 * A string with at least one non-space character. A regex rather than a check action so the
 * OpenAPI document can say it (`pattern: "\\S"`).
 *
 * @example
 * v.is(nonBlankString("expected text"), " "); // false
 */
export const nonBlankString = (expected: string) =>
  v.pipe(v.string(expected), v.regex(/\S/, expected));

/**
 * The longest content a memory may have, in UTF-16 units after Unicode NFKC (what the embedders
 * and the lexical index read): 1,048,576, the request body limit. Text under the body limit
 * reaches it only through a character that NFKC expands (U+FDFA becomes 18): a 1 MB body of it is
 * 6 million characters to embed and index, which held the event loop for ~3 s.
 */
export const MAX_CONTENT_CHARS = 1_048_576;

/**
 * A memory's content: not blank, and at most {@link MAX_CONTENT_CHARS} once normalised (only a
 * text longer than 1/18 of it is normalised to tell).
 *
 * @example
 * v.is(contentField, "Deploys run on Fridays"); // true
 * v.is(contentField, "\uFDFA".repeat(60_000)); // false: 1,080,000 characters once normalised
 */
export const contentField = v.pipe(
  nonBlankString(E.content),
  v.check(
    (text) =>
      fitsNormalisedByLength(text, MAX_CONTENT_CHARS) ||
      text.normalize("NFKC").length <= MAX_CONTENT_CHARS,
    `expected at most ${MAX_CONTENT_CHARS} characters once Unicode-normalised (NFKC); store a longer text as several memories`,
  ),
);

/**
 * An integer from `min` (to `max`), with one message for every way to miss it.
 *
 * @example
 * v.is(integerInRange("expected 1..3", 1, 3), 2); // true
 */
export const integerInRange = (expected: string, min: number, max?: number) =>
  max === undefined
    ? v.pipe(v.number(expected), v.integer(expected), v.minValue(min, expected))
    : v.pipe(
        v.number(expected),
        v.integer(expected),
        v.minValue(min, expected),
        v.maxValue(max, expected),
      );

/** Fields of a memory's kind: what recall, search, listing and deleting filter on. */
export const typeField = v.picklist(MEMORY_TYPES, E.type);
/** A memory scope field. */
export const scopeField = v.picklist(MEMORY_SCOPES, E.scope);
/** A list of tags; a filter on it admits memories carrying every one. */
export const tagsField = v.array(v.string(E.tag), E.tags);

/** A confidence in [0, 1]. */
export const confidenceField = v.pipe(
  v.number(E.confidence),
  v.minValue(0, E.confidence),
  v.maxValue(1, E.confidence),
);

/** A `ttl_seconds`: 1 second to 100 years. */
export const ttlSecondsField = integerInRange(E.ttl_seconds, 1, MAX_TTL_SECONDS);

/**
 * Body of `POST /v1/remember`. Defaults: type `fact`, scope `session`, tags `[]`, project `""`,
 * confidence 1. `ttl_seconds` (an extension) overrides `memory.ttl_hours` for a `ttl` memory.
 *
 * @example
 * v.parse(rememberInputSchema, { content: "Deploys run on Fridays" }).scope; // "session"
 */
export const rememberInputSchema = strictBody(
  {
    content: v.pipe(
      contentField,
      v.description(
        `The text to remember (not empty, not only whitespace; at most ${MAX_CONTENT_CHARS} characters once Unicode-normalised).`,
      ),
    ),
    type: v.optional(typeField, "fact"),
    scope: v.optional(scopeField, "session"),
    tags: v.optional(tagsField, () => []),
    project: v.optional(v.string(E.project), ""),
    confidence: v.optional(confidenceField, 1),
    ttl_seconds: v.optional(
      v.pipe(
        ttlSecondsField,
        v.description("Lifetime of a `ttl` memory in seconds; only with scope `ttl`."),
      ),
    ),
  },
  E.body,
);

/**
 * Body of `POST /v1/remember/batch`: `{memories: [...]}`, 1 to {@link MAX_REMEMBER_BATCH} remember
 * bodies, each validated like `POST /v1/remember` (an error names `memories[i].<field>`).
 *
 * @example
 * v.parse(rememberBatchInputSchema, { memories: [{ content: "a" }, { content: "b" }] });
 */
export const rememberBatchInputSchema = strictBody(
  {
    memories: v.pipe(
      v.array(rememberInputSchema, E.memories),
      v.minLength(1, E.memories),
      v.maxLength(MAX_REMEMBER_BATCH, E.memories),
    ),
  },
  E.body,
);

/** The filters recall and search share beyond `project` (all optional; every one must hold). */
const rankedFilterEntries = {
  type: v.optional(v.pipe(typeField, v.description("Only memories of this type."))),
  scope: v.optional(v.pipe(scopeField, v.description("Only memories of this scope."))),
  tags: v.optional(
    v.pipe(tagsField, v.description("Only memories carrying every one of these tags.")),
  ),
  min_score: v.optional(
    v.pipe(
      v.number(E.min_score),
      v.minValue(0, E.min_score),
      v.maxValue(1, E.min_score),
      v.description(
        "Drop memories whose calibrated relevance (search's `score`) is below this. Recall's default is `recall.min_score` (0.02) raised to the clearest drop in relevance among the candidates (keeping those within `recall.relative_floor`, 0.5, of the best); search has none.",
      ),
    ),
  ),
  explain: v.optional(
    v.pipe(
      v.boolean(E.explain),
      v.description(
        "Add each item's factors (lexical, semantic and store-neighbour evidence; for recall also recency, frequency, type, scope, confidence) and, for recall, what the budget cut.",
      ),
    ),
  ),
};

/**
 * Body of `POST /v1/recall`. Defaults: project `""` (no filter), budget 2000 tokens, the
 * configured relevance floor; `type`, `scope`, `tags` and `min_score` narrow the candidates;
 * `items` and `explain` add fields to the answer (the seed's shape otherwise).
 *
 * @example
 * v.parse(recallInputSchema, { message: "how do we deploy?" }).budget; // 2000
 */
export const recallInputSchema = strictBody(
  {
    message: nonBlankString(E.message),
    project: v.optional(v.string(E.project), ""),
    budget: v.optional(integerInRange(E.budget, 1), DEFAULT_RECALL_BUDGET),
    ...rankedFilterEntries,
    items: v.optional(
      v.pipe(
        v.boolean(E.items),
        v.description(
          "Also return the chosen memories as `items` (id, type, scope, created_at, score), in context order.",
        ),
      ),
    ),
    context_neighbours: v.optional(
      v.pipe(
        integerInRange(E.context_neighbours, 0, MAX_RECALL_CONTEXT_NEIGHBOURS),
        v.description(
          "After each recalled episode, add this many episodes written just before and after it (same project and scope, within an hour: the turns of its conversation), within the budget. Default `recall.context_neighbours` (0: off) when no `min_score` is given, else 0.",
        ),
      ),
    ),
  },
  E.body,
);

/** Extra memory fields a search result can carry on request. */
export const SEARCH_INCLUDES = ["tags", "project"] as const;

/**
 * Body of `POST /v1/search`. Defaults: limit 10, project `""` (no filter); `type`, `scope`,
 * `tags` and `min_score` narrow the results; `include: ["tags", "project"]` adds those fields to
 * each result's memory and `explain` adds each result's factors (the seed's shape otherwise).
 *
 * @example
 * v.parse(searchInputSchema, { message: "deploy", limit: 3 }).limit; // 3
 */
export const searchInputSchema = strictBody(
  {
    message: nonBlankString(E.message),
    limit: v.optional(integerInRange(E.limit, 1, MAX_SEARCH_LIMIT), DEFAULT_SEARCH_LIMIT),
    project: v.optional(v.string(E.project), ""),
    ...rankedFilterEntries,
    include: v.optional(
      v.pipe(
        v.array(v.picklist(SEARCH_INCLUDES, E.include), E.include),
        v.description("Memory fields to add to each result: `tags`, `project`."),
      ),
    ),
  },
  E.body,
);

/**
 * Path parameter `id` of `GET|DELETE /v1/memories/{id}`: a UUID (any version, any case).
 *
 * @example
 * v.is(memoryIdSchema, "0b6f3c1e-6d1c-4f1e-9a57-2f0d7f4b8c11"); // true
 */
export const memoryIdSchema = v.pipe(v.string(E.id), v.uuid(E.id));

/** A `remember` body after validation and defaults. */
export type ParsedRememberInput = v.InferOutput<typeof rememberInputSchema>;
/** A `remember/batch` body after validation and defaults. */
export type ParsedRememberBatchInput = v.InferOutput<typeof rememberBatchInputSchema>;
/** A `recall` body after validation and defaults. */
export type ParsedRecallInput = v.InferOutput<typeof recallInputSchema>;
/** A `search` body after validation and defaults. */
export type ParsedSearchInput = v.InferOutput<typeof searchInputSchema>;
