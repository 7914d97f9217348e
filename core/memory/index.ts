/**
 * The memory domain: the Memory model, its store layout, validation schemas, recall scoring and
 * the {@link MemoryService} use cases.
 *
 * @example
 * import { MemoryService, DEFAULT_MEMORY_SERVICE_OPTIONS } from "agent-services";
 */
export { MEMORY_SCOPES, MEMORY_TYPES } from "./types.js";
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
} from "./types.js";
export type { MemoryApi } from "./memory-api.js";
export type {
  DeleteMatchingInput,
  ListFilterInput,
  ListInput,
  RankedFilters,
  UpdateInput,
} from "./types.js";
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
export { ndjsonLines } from "./ndjson-lines.js";
export type { NdjsonLine } from "./ndjson-lines.js";
export type { UpdateResult } from "./use-cases/update-memory.js";
export { patchedMemory } from "./patched-memory.js";
export { suggestField, unknownFieldMessage } from "./suggest-field.js";
export { strictBody, isUnknownFieldIssue } from "./strict-body.js";
export {
  DEFAULT_LIST_LIMIT,
  deleteMatchingInputSchema,
  importLineSchema,
  listInputSchema,
  MAX_LIST_LIMIT,
  updateInputSchema,
} from "./admin-schemas.js";
export type {
  ParsedDeleteMatchingInput,
  ParsedImportLine,
  ParsedListInput,
  ParsedUpdateInput,
} from "./admin-schemas.js";
export { MemoryService } from "./memory-service.js";
export { SWEEP_BATCH } from "./use-cases/sweep-expired.js";
export { LOAD_PAGE_SIZE, type LoadProgress, type LoadSource } from "../storage/engine-load.js";
export { reindexStore } from "./use-cases/reindex.js";
export type { ReindexOptions } from "./use-cases/reindex.js";
export type { MemoryServiceDeps } from "./memory-service-deps.js";
export { MemoryEngine } from "./engine/memory-engine.js";
export type { Awaitable, MemoryReadModel } from "./engine/read-model.js";
export { StoreQueryReadModel } from "./engine/store-query-read-model.js";
export type { StoreQueryReadModelDeps } from "./engine/store-query-read-model.js";
export type { DuplicateKey, EngineHit, EngineQuery } from "./engine/read-model.js";
export { compileMemoryFilter } from "./engine/memory-filter.js";
export type { MemoryFilter } from "./engine/memory-filter.js";
export { CosineRetrievalIndex } from "../retrieval/cosine-retrieval-index.js";
export { AccessWriteBehind } from "../storage/access-write-behind.js";
export type { AccessWriteBehindDeps } from "../storage/access-write-behind.js";
export {
  createBm25Index,
  createHybridIndex,
  DEFAULT_VECTOR_WEIGHT,
  type FusionMethod,
  type HybridIndexOptions,
  type IndexedDocument,
  type RetrievalHit,
  type RetrievalIndex,
  type RetrievalQuery,
} from "../retrieval/index.js";
export {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  MAX_RECALL_CANDIDATES,
  validateMemoryServiceOptions,
} from "./memory-service-options.js";
export {
  DEFAULT_RECALL_WEIGHTS,
  RECALL_FACTORS,
  validateRecallWeights,
  WEIGHT_SUM_TOLERANCE,
} from "./recall-weights.js";
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
} from "./scoring.js";
export type { MemoryScore, ScoringContext } from "./scoring.js";
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
} from "./schemas.js";
export type {
  ParsedRecallInput,
  ParsedRememberBatchInput,
  ParsedRememberInput,
  ParsedSearchInput,
} from "./schemas.js";
export { describeIssues, parseInput, parseMemoryId } from "./parse-input.js";
export { expiresAtMs, isLive, NEVER_EXPIRES_MS } from "./expiry.js";
export type { ExpiryInput, ExpiryOptions } from "./expiry.js";
export { decodeMemory, encodeMemoryMetadata, MEMORY_METADATA_VERSION } from "./memory-metadata.js";
export { contentHash, normaliseContent } from "./content-key.js";
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
} from "./response-schemas.js";
export {
  accessKeys,
  accessMetadata,
  duplicateMergeMetadata,
  uniqueTags,
  withAccess,
  withMerge,
} from "./metadata-updates.js";
