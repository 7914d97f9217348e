/**
 * agent-services: the public API of the package root. Memory recall and token budgeting, the SQL
 * toolkit and analysers, the ports adapters implement, and the one coded error type. Every name
 * here is part of the semver contract (pinned by tests/unit/public-api.test.ts); the modules
 * behind them have more, which are internal.
 *
 * @example
 * import { MemoryService } from "agent-services";
 * import { InMemoryVectorStore, FakeEmbedder, ManualClock } from "agent-services/testing";
 */

// Errors
export { AgentServicesError, isAgentServicesError } from "./errors.js";
export type { ErrorCode } from "./errors.js";

// Ports (implemented by the adapters, or by your own code)
export type { Clock } from "./ports/clock.js";
export type { TextHasher } from "./ports/text-hasher.js";
export type { Embedder } from "./ports/embedder.js";
export type { EngineSnapshot, EngineSnapshots } from "./ports/engine-snapshots.js";
export type {
  ReplicaSnapshot,
  ReplicaSnapshots,
  SavedReplicaSnapshot,
  SnapshotArrayPlacer,
} from "./ports/replica-snapshots.js";
export type {
  Metadata,
  MetadataValue,
  NewRecord,
  ScanPage,
  StoredRecord,
  VectorRecord,
  VectorSpace,
  VectorStore,
} from "./ports/vector-store.js";
export type { JournalEntry, WriteJournal } from "./ports/write-journal.js";
export type {
  ParsedStatement,
  SqlParseResult,
  SqlParser,
  SqlSyntaxError,
} from "./ports/sql-parser.js";

// Memory
export { MemoryService } from "./memory/memory-service.js";
export type { MemoryServiceDeps } from "./memory/memory-service-deps.js";
export type { LoadProgress, LoadSource } from "./storage/engine-load.js";
export { reindexStore } from "./memory/use-cases/reindex.js";
export { JournaledVectorStore } from "./storage/journaled-vector-store.js";
export type {
  JournalEvent,
  JournaledVectorStoreOptions,
} from "./storage/journaled-vector-store.js";
export type { ReindexOptions } from "./memory/use-cases/reindex.js";
export { createBm25Index, createHybridIndex } from "./retrieval/hybrid-index.js";
export type { FusionMethod, HybridIndexOptions } from "./retrieval/hybrid-index.js";
export type {
  IndexedDocument,
  RetrievalHit,
  RetrievalIndex,
  RetrievalQuery,
} from "./retrieval/retrieval-index.js";
export { DEFAULT_MEMORY_SERVICE_OPTIONS } from "./memory/model/memory-service-options.js";
export { DEFAULT_RECALL_WEIGHTS } from "./memory/model/recall-weights.js";
export { MEMORY_SCOPES, MEMORY_TYPES } from "./memory/model/types.js";
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
  DeleteMatchingInput,
  ListInput,
  UpdateInput,
} from "./memory/model/types.js";
export type { MemoryApi } from "./memory/memory-api.js";
// What MemoryService's list, update, deleteMatching, export, import and recall take or return.
export type { ListPage } from "./memory/engine/list-page.js";
export type { UpdateResult } from "./memory/use-cases/update-memory.js";
export type { DeleteMatchingResult } from "./memory/use-cases/delete-matching.js";
export type { ExportedMemory } from "./memory/use-cases/export-memories.js";
export type { ImportResult } from "./memory/use-cases/import-memories.js";
export type { NdjsonLine } from "./memory/model/ndjson-lines.js";
export type { RecallOptions } from "./memory/use-cases/recall.js";

// Tokens
export { estimateTokens } from "./tokens/estimate-tokens.js";
export { CONTEXT_HEADER, packContext } from "./tokens/pack-context.js";
export type { ContextEntry, PackedContext } from "./tokens/pack-context.js";

// SQL
export { SQL_DIALECTS, toSqlDialect } from "./sql/dialects.js";
export type { SqlDialect } from "./sql/dialects.js";
export { createSqlToolkit } from "./sql/sql-toolkit.js";
export { tokenize } from "./sql/tokenizer.js";
export type { Token, TokenKind } from "./sql/token.js";
export { lintSql } from "./sql/lint/lint-sql.js";
export { scanSql } from "./sql/security/scan-sql.js";
export { formatSql, DEFAULT_FORMAT_OPTIONS } from "./sql/format.js";
export type {
  AnalyzeResult,
  FindingSeverity,
  FormatOptions,
  FormatResult,
  LintResult,
  LintSeverity,
  LintViolation,
  MetadataResult,
  ParseResult,
  SecurityFinding,
  SecurityScanResult,
  SqlToolkit,
  ToolOutcome,
  ToolSuccess,
  ValidateResult,
} from "./sql/results.js";
