/**
 * The memory domain and its service. Read it inward out; each layer imports only those before it
 * (checked by tests/unit/boundary/memory-layers.test.ts and the import-cycle test):
 *
 * - `model/`: the domain model and its validation, pure functions and data. The `Memory` type and
 *   the request/answer types (`types.ts`), the input schemas (`schemas.ts`, `admin-schemas.ts`)
 *   and their checks (`parse-input.ts`, `strict-body.ts`, `suggest-field.ts`), the answer schemas
 *   (`response-schemas.ts`), the content key (`content-key.ts`, `sha256.ts`), expiry
 *   (`expiry.ts`), the store layout (`memory-metadata.ts`) and how writes change a memory
 *   (`new-memory.ts`, `patched-memory.ts`, `metadata-updates.ts`), recall scoring (`scoring.ts`,
 *   `recall-weights.ts`), the service options (`memory-service-options.ts`) and NDJSON import
 *   lines (`ndjson-lines.ts`).
 * - `engine/`: the read model (`read-model.ts`: `MemoryReadModel` and the engine's query
 *   vocabulary), `MemoryEngine` (every memory in process, in owner mode and on every replica),
 *   with filters, listing order and pages.
 * - `use-cases/`: one file per use case, each `(context, input) => result` over the
 *   `ServiceContext` (`service-context.ts`): remember, remember-batch, recall, search, get, list,
 *   update, delete, delete-matching, export, import, stats, sweep-expired (and what several
 *   share: `remember-all.ts`, `apply-merges.ts`, `ranked-filter.ts`); `reindex.ts` copies one
 *   store into another and needs no service.
 * - here: `MemoryService` (`memory-service.ts`, the facade: wiring, `init`/`saveSnapshot`, the
 *   write gate), its dependencies (`memory-service-deps.ts`), the `MemoryApi` interface the shells
 *   program against, and the per-key locks (`keyed-lock.ts`) and write gate (`write-gate.ts`).
 *
 * Beside it: `../retrieval/` ranks (the hybrid BM25 and cosine index the engine queries) and
 * `../storage/` persists (the write journal, the access write-behind, loading and snapshots).
 *
 * @example
 * import { MemoryService, DEFAULT_MEMORY_SERVICE_OPTIONS } from "agent-services";
 */
export { MEMORY_SCOPES, MEMORY_TYPES } from "./model/types.js";
export type {
  Memory,
  MemoryScope,
  MemoryServiceOptions,
  MemoryStats,
  MemorySummary,
  MemoryType,
  RecallInput,
  RecallResult,
  RecallWeights,
  RememberBatchInput,
  RememberBatchItem,
  RememberBatchResult,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
  SearchResultItem,
  StatsInput,
  ValueCounts,
} from "./model/types.js";
export type { MemoryApi } from "./memory-api.js";
export type {
  DeleteMatchingInput,
  ListFilterInput,
  ListInput,
  RankedFilters,
  UpdateInput,
} from "./model/types.js";
export type { DeleteMatchingResult } from "./use-cases/delete-matching.js";
export { DELETE_BATCH } from "./use-cases/delete-matching.js";
export type { ListPage, ListOrder } from "./engine/list-page.js";
export { listPosition, takePage } from "./engine/list-page.js";
export { compileListFilter, hasListClause } from "./engine/list-filter.js";
export type { ListFilter } from "./engine/list-filter.js";
export type { ExportedMemory } from "./use-cases/export-memories.js";
export { EXPORT_PAGE_SIZE } from "./use-cases/export-memories.js";
export type { ImportResult } from "./use-cases/import-memories.js";
export { IMPORT_BATCH, MAX_REJECTED_LISTED } from "./use-cases/import-memories.js";
export { ndjsonLines } from "./model/ndjson-lines.js";
export type { NdjsonLine } from "./model/ndjson-lines.js";
export type { UpdateResult } from "./use-cases/update-memory.js";
export { patchedMemory } from "./model/patched-memory.js";
export { suggestField, unknownFieldMessage } from "./model/suggest-field.js";
export { strictBody, isUnknownFieldIssue } from "./model/strict-body.js";
export { isCalendarDate } from "./model/calendar-date.js";
export { MAX_JSON_NESTING, nestsDeeperThan, TOO_DEEP } from "./model/json-nesting.js";
export {
  DEFAULT_LIST_LIMIT,
  deleteMatchingInputSchema,
  importLineSchema,
  listInputSchema,
  MAX_LIST_LIMIT,
  MAX_STATS_TOP,
  statsInputSchema,
  updateInputSchema,
} from "./model/admin-schemas.js";
export type {
  ParsedDeleteMatchingInput,
  ParsedImportLine,
  ParsedListInput,
  ParsedStatsInput,
  ParsedUpdateInput,
} from "./model/admin-schemas.js";
export { MemoryService } from "./memory-service.js";
export { SWEEP_BATCH } from "./use-cases/sweep-expired.js";
export { LOAD_PAGE_SIZE, type LoadProgress, type LoadSource } from "../storage/engine-load.js";
export { reindexStore } from "./use-cases/reindex.js";
export type { ReindexOptions } from "./use-cases/reindex.js";
export type { MemoryServiceDeps } from "./memory-service-deps.js";
export { MemoryEngine } from "./engine/memory-engine.js";
export type { Awaitable, MemoryReadModel } from "./engine/read-model.js";
export type { MemoryCounts, ValueCount } from "./engine/memory-counts.js";
export type { DuplicateKey, EngineHit, EngineQuery } from "./engine/read-model.js";
export { compileMemoryFilter } from "./engine/memory-filter.js";
export type { MemoryFilter } from "./engine/memory-filter.js";
export { CosineRetrievalIndex } from "../retrieval/cosine-retrieval-index.js";
export { AccessWriteBehind } from "../storage/access-write-behind.js";
export type { AccessWriteBehindDeps } from "../storage/access-write-behind.js";
export {
  createBm25Index,
  createHybridIndex,
  DEFAULT_NEIGHBOUR_LIFT,
  DEFAULT_VECTOR_WEIGHT,
  type FusionMethod,
  type HybridIndexOptions,
  type IndexedDocument,
  type RetrievalHit,
  type RetrievalIndex,
  type RetrievalQuery,
} from "../retrieval/index.js";
export { neighbourLiftOf } from "./neighbour-lift.js";
export {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  DEFAULT_RECALL_CONTEXT_NEIGHBOURS,
  DEFAULT_RECALL_MIN_SCORE,
  DEFAULT_RECALL_RELATIVE_FLOOR,
  MAX_RECALL_CANDIDATES,
  MAX_RECALL_CONTEXT_NEIGHBOURS,
  recallContextNeighboursOf,
  recallKneeGapOf,
  recallMinScoreOf,
  recallRelativeFloorOf,
  validateMemoryServiceOptions,
} from "./model/memory-service-options.js";
export {
  DEFAULT_RECALL_KNEE_GAP,
  recallCutFloor,
  type RecallCutOptions,
} from "./model/recall-cut.js";
export {
  DEFAULT_RECALL_WEIGHTS,
  RECALL_FACTORS,
  validateRecallWeights,
  WEIGHT_SUM_TOLERANCE,
} from "./model/recall-weights.js";
export {
  frequencyFactor,
  recencyFactor,
  scopeFactor,
  scoreMemory,
  similarityFactor,
  SCOPE_FACTOR_NEUTRAL,
  SCOPE_FACTOR_OTHER,
  SCOPE_FACTOR_PERMANENT,
  SCOPE_FACTOR_SAME_PROJECT,
  TYPE_FACTORS,
} from "./model/scoring.js";
export type { MemoryScore, ScoringContext } from "./model/scoring.js";
export {
  DEFAULT_RECALL_BUDGET,
  DEFAULT_SEARCH_LIMIT,
  FIELD_EXPECTATIONS,
  MAX_REMEMBER_BATCH,
  MAX_SEARCH_LIMIT,
  memoryIdSchema,
  recallInputSchema,
  rememberBatchInputSchema,
  rememberInputSchema,
  SEARCH_INCLUDES,
  searchInputSchema,
} from "./model/schemas.js";
export type {
  ParsedRecallInput,
  ParsedRememberBatchInput,
  ParsedRememberInput,
  ParsedSearchInput,
} from "./model/schemas.js";
export { describeIssues, parseInput, parseMemoryId } from "./model/parse-input.js";
export { expiresAtMs, isLive, NEVER_EXPIRES_MS } from "./model/expiry.js";
export type { ExpiryInput, ExpiryOptions } from "./model/expiry.js";
export {
  decodeMemory,
  encodeMemoryMetadata,
  MEMORY_METADATA_VERSION,
} from "./model/memory-metadata.js";
export { contentHash, normaliseContent } from "./model/content-key.js";
export { KeyedLock } from "./keyed-lock.js";
export {
  deleteMatchingResultSchema,
  importResultSchema,
  listResultSchema,
  updateResultSchema,
  deleteResultSchema,
  memorySchema,
  memoryStatsSchema,
  recallResultSchema,
  rememberBatchResultSchema,
  rememberResultSchema,
  searchResultSchema,
} from "./model/response-schemas.js";
export {
  accessKeys,
  accessMetadata,
  duplicateMergeMetadata,
  uniqueTags,
  withAccess,
  withMerge,
} from "./model/metadata-updates.js";
