/**
 * agent-services core: pure domain code with no I/O. Memory scoring and recall, token budgeting,
 * SQL analysis (tokenizer, lint rules, injection scanner), the ports adapters implement, and the
 * one coded error type.
 *
 * @example
 * import { MemoryService } from "agent-services";
 * import { InMemoryVectorStore, FakeEmbedder, ManualClock } from "agent-services/testing";
 */
export { AgentServicesError, isAgentServicesError } from "./errors.js";
export type { ErrorCode } from "./errors.js";
export type * from "./ports/index.js";
export type {
  ParsedStatement,
  SqlParseResult,
  SqlParser,
  SqlSyntaxError,
} from "./ports/sql-parser.js";
export * from "./memory/index.js";
export * from "./sql/index.js";
export * from "./tokens/index.js";
