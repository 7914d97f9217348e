import type { SqlSchema } from "../ports/sql-semantics.js";
import type { LintOptions } from "./lint/lint-options.js";

/**
 * Result objects of the seven SQL tools, with the wire names of the MCP server (snake_case).
 * Produced by the pure core functions in `core/sql/`; the MCP shell returns them unchanged.
 */

/** `validate_sql`. `dialect` is present only when the caller gave one (echoed as given). */
export interface ValidateResult {
  valid: boolean;
  /** `invalid SQL: line L, column C: <reason>` when invalid. */
  error?: string;
  dialect?: string;
  /** Only with a `schema`: every problem found, in text order (the first is `error`). */
  errors?: SqlProblem[];
  /** Only with a `schema`: false when the names could not be checked (the SQL does not parse). */
  schema_checked?: boolean;
}

/** One positioned problem of `validate_sql` with a schema. */
export interface SqlProblem {
  /** `syntax_error`, `unknown_table`, `unknown_column`, `ambiguous_column`, `unresolved_reference`. */
  code: string;
  message: string;
  line: number;
  column: number;
}

/** Options of `validate_sql` beyond the dialect. */
export interface ValidateOptions {
  /** Tables and their columns: names are checked against it. */
  readonly schema?: SqlSchema | undefined;
}

/** Options of `format_sql` (all optional on input; echoed with defaults filled in). */
export interface FormatOptions {
  /** Spaces per indent level, integer 0..16 (default 2). */
  indent_size: number;
  /** true → keywords upper-case; false → keyword case preserved (default false). */
  uppercase_keywords: boolean;
  /** true → every statement ends with `;` (default false). */
  add_semicolon: boolean;
}

/** `format_sql`. */
export interface FormatResult {
  formatted_sql: string;
  options: FormatOptions;
  /** Only when asked: the dialect the SQL was transpiled to (echoed as given). */
  target_dialect?: string;
}

/** `parse_sql`: kinds as `*ast.<Kind>Statement` (or `*ast.SetOperation`). */
export interface ParseResult {
  statement_count: number;
  statement_types: string[];
}

/** `extract_metadata`: first-seen order. */
export interface MetadataResult {
  tables: string[];
  columns: string[];
  functions: string[];
  /** Only with `lineage: true`: the source columns of each output column of each query. */
  lineage?: ColumnLineage[];
}

/** Where one output column of a query comes from. */
export interface ColumnLineage {
  /** 1-based statement number in the text. */
  statement: number;
  /** The output column's name (`_N` for an unnamed expression, `*` for a wildcard). */
  column: string;
  /** `table.column` of every table column it is computed from (empty for a literal). */
  sources: string[];
}

/** Options of `extract_metadata`. */
export interface MetadataOptions {
  /** Trace each output column to its source columns. */
  readonly lineage?: boolean | undefined;
}

/** Severity of an injection finding. */
export type FindingSeverity = "CRITICAL" | "HIGH" | "MEDIUM" | "LOW";

/** One injection finding. */
export interface SecurityFinding {
  severity: FindingSeverity;
  /** TAUTOLOGY, UNION_INJECTION, UNION_GENERIC, STACKED_QUERY, COMMENT_BYPASS, TIME_BASED, OUT_OF_BAND, DANGEROUS_FUNCTION, BOOLEAN_BASED, … */
  pattern: string;
  description: string;
  risk: string;
  suggestion: string;
}

/** `security_scan`. */
export interface SecurityScanResult {
  is_clean: boolean;
  has_critical: boolean;
  /** True when any HIGH or CRITICAL finding exists. */
  has_high: boolean;
  total_count: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  findings: SecurityFinding[];
}

/** Severity of a lint violation. */
export type LintSeverity = "error" | "warning" | "info";

/** One lint violation; line and column are 1-based, columns in code points. */
export interface LintViolation {
  rule: string;
  rule_name: string;
  severity: LintSeverity;
  message: string;
  line: number;
  column: number;
  suggestion: string;
}

/** `lint_sql`: violations sorted by line, column, rule. */
export interface LintResult {
  violation_count: number;
  violations: LintViolation[];
}

/** `analyze_sql`: a sub-tool's key is absent when it failed, and its message is under `errors`. */
export interface AnalyzeResult {
  validate?: ValidateResult;
  parse?: ParseResult;
  metadata?: MetadataResult;
  security?: SecurityScanResult;
  lint?: LintResult;
  format?: FormatResult;
  errors?: Partial<
    Record<"validate" | "parse" | "metadata" | "security" | "lint" | "format", string>
  >;
}

/**
 * The outcome of a tool that can fail on the SQL itself (not on its parameters): the result, or
 * a message such as `parse failed: line 1, column 8: …` / `format failed: …` that the MCP shell
 * turns into a tool error result (`isError: true`).
 */
export type ToolOutcome<T> = ToolSuccess<T> | { readonly ok: false; readonly error: string };

/** The outcome of a tool that cannot fail on the SQL (validate, scan, lint, analyze). */
export interface ToolSuccess<T> {
  readonly ok: true;
  readonly result: T;
}

/**
 * Options of `lint_sql` (all optional; the defaults are the seed's behaviour). The same type as
 * the linter's `LintOptions` in `./lint/lint-options.ts`.
 */
export type { LintOptions } from "./lint/lint-options.js";

/** What `fixSql` (`./lint/fix-sql.ts`) did. */
export interface FixResult {
  /** The SQL with every safe fix applied (the input when nothing was fixable). */
  fixed_sql: string;
  /** True when `fixed_sql` differs from the input. */
  changed: boolean;
  /** How many violations the fixes removed (those before minus those left, at least 0). */
  fixed_count: number;
  /** The violations left in `fixed_sql`: rules without a fix, or fixes that were not safe. */
  remaining: LintResult;
}

/**
 * The seven SQL tools over already-validated parameters (the shell validates `sql` is a non-empty
 * string of at most 256 KiB, `dialect` is known, `indent_size` is 0..16). Pure and synchronous
 * once the parser is loaded. Every tool answers the same shape: `{ ok: true, result }`, or
 * `{ ok: false, error }` for the tools that can fail on the SQL (format, parse, metadata).
 * Invalid SQL is not a failure of `validate`: it answers `{ ok: true, result: { valid: false, … } }`.
 * A library caller's wrong parameter (`sql` not a string, an unknown dialect where one is
 * resolved) throws `AgentServicesError("invalid_input")` naming it.
 *
 * @example
 * const tools = createSqlToolkit(await createDefaultSqlParser()); // adapters/sql
 * tools.validate("SELECT TOP 5 * FROM t", "sqlserver"); // { ok: true, result: { valid: true, dialect: "sqlserver" } }
 * tools.parse("SELEC 1"); // { ok: false, error: "parse failed: line 1, column 1: …" }
 */
export interface SqlToolkit {
  /**
   * `dialect` as the caller gave it (echoed verbatim), or undefined for generic without echo.
   * With `options.schema`, names are checked too (`errors` and `schema_checked` added).
   */
  validate(sql: string, dialect?: string, options?: ValidateOptions): ToolSuccess<ValidateResult>;
  /**
   * `dialect` (any letter case) decides how strings are read: `mysql` honours `\'` escapes. With
   * `targetDialect`, the SQL is transpiled from `dialect` to it first (echoed as `target_dialect`).
   */
  format(
    sql: string,
    options?: Partial<FormatOptions>,
    dialect?: string,
    targetDialect?: string,
  ): ToolOutcome<FormatResult>;
  parse(sql: string): ToolOutcome<ParseResult>;
  /** With `options.lineage`, the output columns' sources are added as `lineage`. */
  metadata(sql: string, options?: MetadataOptions): ToolOutcome<MetadataResult>;
  scan(sql: string): ToolSuccess<SecurityScanResult>;
  /** `options.dialect` decides how the text is read (`mysql` honours `\'` escapes). */
  lint(sql: string, options?: LintOptions): ToolSuccess<LintResult>;
  /** `fix_sql`: the text with every safe lint fix applied (meaning kept), and what is left. */
  fix(sql: string, options?: LintOptions): ToolSuccess<FixResult>;
  analyze(sql: string): ToolSuccess<AnalyzeResult>;
}
