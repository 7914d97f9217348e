/**
 * The SQL tools of the core: dialects, the tokenizer, validation, parsing, metadata, formatting,
 * the dialect-feature checks, the composite analysis and the toolkit that bundles them. Parsing
 * goes through the `SqlParser` port (adapters in `adapters/sql`).
 *
 * @example
 * const tools = createSqlToolkit(parser);
 * tools.validate("SELECT TOP 5 * FROM t", "sqlserver"); // { ok: true, result: { valid: true, dialect: "sqlserver" } }
 */
export { SQL_DIALECTS, toSqlDialect } from "./dialects.js";
export type { SqlDialect } from "./dialects.js";
export type { Token, TokenKind } from "./token.js";
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
} from "./results.js";
export { tokenize } from "./tokenizer.js";
export { findDialectViolation } from "./dialect-features.js";
export { describeSyntaxError } from "./syntax-error.js";
export { validateSql, findSyntaxError } from "./validate.js";
export { parseSql, toParseResult, statementTypeName, fromParse } from "./parse.js";
export { extractMetadata, toMetadataResult } from "./metadata.js";
export { formatSql, DEFAULT_FORMAT_OPTIONS, MAX_INDENT_SIZE } from "./format.js";
export { analyzeSql, type SqlTextAnalysers } from "./analyze.js";
export { createSqlToolkit } from "./sql-toolkit.js";
export { lintSql, LINT_RULES } from "./lint/index.js";
export { scanSql, SECURITY_PATTERNS } from "./security/index.js";
