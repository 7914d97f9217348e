/**
 * The Memory model and the MemoryService's inputs and outputs. Field names are the wire names of
 * the memory REST API (snake_case), so the shells pass these objects through unchanged.
 *
 * Long because: every request and answer shape of the API is declared here, types only, so the
 * wire format reads in one place (and split, the inputs would import the filters back from here).
 */

/** Kinds of memory, most to least binding. */
export const MEMORY_TYPES = ["rule", "fact", "episode", "procedure", "preference"] as const;
/** A kind of memory. */
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** How long a memory lives and where it applies. */
export const MEMORY_SCOPES = ["permanent", "project", "session", "ttl"] as const;
/** A memory scope. */
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** A stored memory, as `GET /v1/memories/{id}` returns it. Timestamps are ISO 8601 UTC with ms. */
export interface Memory {
  readonly id: string;
  readonly content: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly tags: readonly string[];
  readonly project: string;
  readonly confidence: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_accessed: string;
  readonly access_count: number;
  /** When it expires if nothing changes; null for `permanent` and `project`. */
  readonly expires_at: string | null;
}

/** Input of `remember`, after defaults: only `content` is required. */
export interface RememberInput {
  readonly content: string;
  readonly type?: MemoryType;
  readonly scope?: MemoryScope;
  readonly tags?: readonly string[];
  readonly project?: string;
  readonly confidence?: number;
  /** Overrides `ttl_hours` for a `ttl` memory. Positive integer. Absent and undefined are alike. */
  readonly ttl_seconds?: number | undefined;
}

/** Output of `remember`. */
export interface RememberResult {
  readonly id: string;
  readonly stored: boolean;
  /** Present and true when an identical live memory absorbed this one. */
  readonly deduplicated?: true;
}

/** Input of `rememberBatch` (`POST /v1/remember/batch`): 1 to 1000 remember bodies. */
export interface RememberBatchInput {
  readonly memories: readonly RememberInput[];
}

/** One item of a `rememberBatch` answer, in the order of the input. */
export interface RememberBatchItem {
  readonly id: string;
  readonly stored: boolean;
  /** True when a live memory (or an earlier item of the batch) absorbed this one. */
  readonly deduplicated: boolean;
}

/** Output of `rememberBatch`. */
export interface RememberBatchResult {
  readonly memories: readonly RememberBatchItem[];
}

/** Filters recall and search share beyond `project`; every one given must hold. */
export interface RankedFilters {
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  /** The memory carries every one of these tags. */
  readonly tags?: readonly string[] | undefined;
  /**
   * Drop memories whose calibrated relevance (search's `score`) is below this, in [0, 1].
   * Recall's default is the configured floor ({@link MemoryServiceOptions.recallMinScore}) raised
   * to the candidates' knee when they have one, lowered to the relative floor
   * ({@link MemoryServiceOptions.recallRelativeFloor}) times the best; a request's own
   * `min_score` replaces both.
   */
  readonly min_score?: number | undefined;
  /** Add each item's factors to the answer (and, for recall, what the budget cut). */
  readonly explain?: boolean | undefined;
}

/** The evidence behind a relevance (see `RetrievalHit`), each in [0, 1]. */
export interface RelevanceFactors {
  /** BM25+ over the most the message's terms could score. */
  readonly lexical: number;
  /** The cosine's rise above the message's mean cosine over the store. */
  readonly semantic: number;
  /**
   * Evidence lent by the memories written just before and after it in its project and scope
   * (0 without lexical evidence of its own; see docs/memory-model.md, "Ranking").
   */
  readonly neighbour: number;
  /** The calibrated relevance the three give (search's `score`). */
  readonly relevance: number;
}

/** Every factor of a recall score, each in [0, 1]. */
export interface RecallFactors extends RelevanceFactors {
  readonly recency: number;
  readonly frequency: number;
  readonly type: number;
  readonly scope: number;
  readonly confidence: number;
}

/** One memory recall chose (`items: true`), with its recall score. */
export interface RecallItem {
  readonly id: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly created_at: string;
  /** The recall score: relevance gated re-ranking, in [0, 1]. */
  readonly score: number;
  /**
   * The id of the recalled episode this one was written next to, when it is in the context as
   * that one's surrounding turn rather than for its own relevance (see
   * `recallContextNeighbours`).
   */
  readonly context_of?: string;
  /** With `explain: true`. */
  readonly factors?: RecallFactors;
}

/** A relevant memory that did not fit the budget (`explain: true`). */
export interface RecallCut {
  readonly id: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly created_at: string;
  readonly score: number;
  /** Estimated tokens of its context line. */
  readonly tokens: number;
  readonly factors: RecallFactors;
}

/** What `explain: true` adds to a recall answer. */
export interface RecallExplanation {
  /**
   * The relevance floor applied: the request's `min_score`, else the configured default raised
   * to the relative floor times the best candidate's relevance when that is higher.
   */
  readonly min_score: number;
  /** Candidates the index returned above 0 relevance. */
  readonly candidates: number;
  /** Of those, how many the floor dropped. */
  readonly below_min_score: number;
  /** Relevant memories the budget left out, best first. */
  readonly cut_by_budget: readonly RecallCut[];
}

/** Input of `recall`. */
export interface RecallInput extends RankedFilters {
  readonly message: string;
  readonly project?: string;
  /** Token budget of the context, integer ≥ 1 (default 2000). */
  readonly budget?: number;
  /** Also return the chosen memories as `items`. */
  readonly items?: boolean | undefined;
  /**
   * Episodes each side of every recalled episode to add as its context, 0..10 (default the
   * service's `recallContextNeighbours` when no `min_score` is given, else 0).
   */
  readonly context_neighbours?: number | undefined;
}

/** Output of `recall`: the seed's three fields, plus `items` and `explain` when asked. */
export interface RecallResult {
  readonly context: string;
  readonly memory_count: number;
  readonly tokens_used: number;
  /** With `items: true` or `explain: true`: the chosen memories in context order. */
  readonly items?: readonly RecallItem[];
  /** With `explain: true`. */
  readonly explain?: RecallExplanation;
}

/** Input of `search`. */
export interface SearchInput extends RankedFilters {
  readonly message: string;
  /** Integer 1..1000 (default 10). */
  readonly limit?: number;
  readonly project?: string;
  /** Memory fields to add to each result (the seed's shape otherwise). */
  readonly include?: readonly ("tags" | "project")[] | undefined;
}

/** The memory subset inside a search result (`tags`, `project` only when `include` asks). */
export interface MemorySummary {
  readonly id: string;
  readonly content: string;
  readonly type: MemoryType;
  readonly scope: MemoryScope;
  readonly confidence: number;
  readonly tags?: readonly string[];
  readonly project?: string;
}

/**
 * One search hit: the memory subset and its `score`, the calibrated relevance in [0, 1]
 * (comparable across queries and store sizes; docs/memory-service.md, "Scores").
 */
export interface SearchResultItem {
  readonly memory: MemorySummary;
  readonly score: number;
  /** With `explain: true`. */
  readonly factors?: RelevanceFactors;
}

/** Output of `search`. */
export interface SearchResult {
  readonly results: readonly SearchResultItem[];
}

/** Filters of a listing and a delete by filter; `project` is exact here. */
export interface ListFilterInput {
  readonly project?: string | undefined;
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  /** The memory carries every one of these tags. */
  readonly tags?: readonly string[] | undefined;
  /** ISO 8601 date or date-time; created strictly after it. */
  readonly created_after?: string | undefined;
  /** ISO 8601 date or date-time; created strictly before it. */
  readonly created_before?: string | undefined;
  /** Substring of the content, case-insensitive. */
  readonly q?: string | undefined;
}

/** Input of `list` (`GET /v1/memories`). */
export interface ListInput extends ListFilterInput {
  /** Page size 1..1000 (default 50). */
  readonly limit?: number | undefined;
  /** The `next_cursor` of the previous page. */
  readonly cursor?: string | undefined;
  /** Default `newest`. */
  readonly order?: "newest" | "oldest" | undefined;
}

/** Input of `deleteMatching` (`POST /v1/memories/delete`). */
export interface DeleteMatchingInput extends ListFilterInput {
  /** Required to delete with no narrowing filter. */
  readonly all?: boolean | undefined;
  /** Count, delete nothing. */
  readonly dry_run?: boolean | undefined;
}

/** Input of `update` (`PATCH /v1/memories/{id}`): at least one field. */
export interface UpdateInput {
  readonly content?: string | undefined;
  readonly type?: MemoryType | undefined;
  readonly scope?: MemoryScope | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly project?: string | undefined;
  readonly confidence?: number | undefined;
  /** New lifetime of a `ttl` memory, from now. */
  readonly ttl_seconds?: number | undefined;
}

/** Output of `stats`: every key present, zeros included, expired memories not counted. */
export interface MemoryStats {
  readonly total_memories: number;
  readonly by_type: Readonly<Record<MemoryType, number>>;
  readonly by_scope: Readonly<Record<MemoryScope, number>>;
  /** With `top`: the most frequent projects (`""`: no project). */
  readonly by_project?: ValueCounts;
  /** With `top`: the most frequent tags (a memory counts once under each of its tags). */
  readonly by_tag?: ValueCounts;
}

/** The `top` most frequent values of a facet, and what the bound left out. */
export interface ValueCounts {
  /** Most frequent first, then by value. */
  readonly values: readonly { readonly value: string; readonly count: number }[];
  /** The sum of the counts of the values not listed. */
  readonly other: number;
  /** How many distinct values there are, listed or not. */
  readonly distinct: number;
}

/**
 * Input of `stats` (`GET /v1/stats`): the listing's filters (counts of the memories passing all
 * of them) and `top`, which adds `by_project` and `by_tag` with at most that many values each.
 */
export interface StatsInput extends ListFilterInput {
  /** 1..1000: add `by_project` and `by_tag`, each the `top` most frequent values. */
  readonly top?: number | undefined;
}

/** Weights of the recall score; they sum to 1 (± 0.01). */
export interface RecallWeights {
  readonly similarity: number;
  readonly recency: number;
  readonly frequency: number;
  readonly type: number;
  readonly scope: number;
  readonly confidence: number;
}

/**
 * Tunables of the memory service (the `memory` and `recall` config sections). Expiry instants are
 * computed when a memory is written or accessed, with the options in effect then.
 */
export interface MemoryServiceOptions {
  /** Lifetime of a `ttl` memory (default 720). */
  readonly ttlHours: number;
  /** A `session` memory not accessed for this long expires (default 24). */
  readonly sessionIdleHours: number;
  /** Candidates taken by relevance before re-ranking (default 50). */
  readonly recallCandidates: number;
  /** Half-life of the recency factor (default 168). */
  readonly halfLifeHours: number;
  readonly weights: RecallWeights;
  /**
   * Recall's default relevance floor in [0, 1] (default 0.02): candidates of lower calibrated
   * relevance never enter the context. A request's `min_score` replaces it. Optional so options
   * written before it existed still type-check; absent means the default.
   */
  readonly recallMinScore?: number;
  /**
   * When recall's candidates show a knee (a clear fall in relevance, see {@link recallKneeGap}),
   * those below it still stay if their relevance is at least this share of the best one, in
   * [0, 1] (default 0.5; 1 keeps only those above the knee, 0 turns the knee off). Applies when a request names no
   * `min_score`. Optional like {@link recallMinScore}.
   */
  readonly recallRelativeFloor?: number;
  /**
   * The smallest fall in log-odds between neighbouring candidates that recall's default cut takes
   * as a knee (default 0.7, see `recall-cut.ts`; `Infinity` turns the knee off, which keeps every
   * candidate at or above `recallMinScore`). Optional like {@link recallMinScore}.
   */
  readonly recallKneeGap?: number;
  /**
   * How much of its store neighbours' evidence a candidate with lexical evidence of its own gets,
   * in [0, 1] (default 0.3; 0 turns it off): the memories written just before and after it in
   * its project and scope (see `HybridIndexOptions.neighbourLift`). Used when the service builds
   * its own index. Optional like {@link recallMinScore}.
   */
  readonly neighbourLift?: number;
  /**
   * How many of the memories written just before and after each recalled `episode` (in its
   * project and scope, within an hour of it) recall adds as its context, each side, in [0, 10]
   * (default 0: off; 2 suits a store of conversation turns): the turns around one that matched.
   * Applies when a request names no `min_score` (a request's `context_neighbours` replaces it),
   * and only within the budget. Optional like {@link recallMinScore}.
   */
  readonly recallContextNeighbours?: number;
  /**
   * Told about problems that must not fail the request, e.g. an access-metadata update that
   * failed after a recall had already answered, or a stored record that cannot be decoded.
   * The shell logs them. Without it such problems are dropped.
   */
  readonly onWarning?: (message: string, cause: unknown) => void;
}
