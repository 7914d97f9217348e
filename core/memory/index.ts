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
  MemoryApi,
  MemoryScope,
  MemoryServiceOptions,
  MemoryStats,
  MemorySummary,
  MemoryType,
  RecallInput,
  RecallResult,
  RecallWeights,
  RememberInput,
  RememberResult,
  SearchInput,
  SearchResult,
  SearchResultItem,
} from "./types.js";
export { MemoryService } from "./memory-service.js";
export type { MemoryServiceDeps } from "./memory-service.js";
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
  MAX_SEARCH_LIMIT,
  memoryIdSchema,
  recallInputSchema,
  rememberInputSchema,
  searchInputSchema,
} from "./schemas.js";
export type { ParsedRecallInput, ParsedRememberInput, ParsedSearchInput } from "./schemas.js";
export { describeIssues, parseInput, parseMemoryId } from "./parse-input.js";
export { expiresAtMs, isLive, NEVER_EXPIRES_MS } from "./expiry.js";
export type { ExpiryInput, ExpiryOptions } from "./expiry.js";
export { decodeMemory, encodeMemoryMetadata, MEMORY_METADATA_VERSION } from "./memory-metadata.js";
export { contentHash, normaliseContent } from "./content-key.js";
export { candidateFilter, duplicateFilter, expiredFilter, liveFilter } from "./memory-filters.js";
export type { DuplicateKey } from "./memory-filters.js";
export { KeyedLock } from "./keyed-lock.js";
export {
  deleteResultSchema,
  memorySchema,
  memoryStatsSchema,
  recallResultSchema,
  rememberResultSchema,
  searchResultSchema,
} from "./response-schemas.js";
export { accessMetadata, duplicateMergeMetadata, uniqueTags } from "./metadata-updates.js";
