import * as v from "valibot";
import type { SqlToolkit } from "../../core/sql/results.js";
import { defineMcpTool, READ_ONLY_TOOL, type McpTool } from "../common/mcp/mcp-tool.js";
import { lintOptionEntries, toLintOptions } from "./lint/lint-options-schema.js";
import {
  analyzeResultSchema,
  formatResultSchema,
  lintResultSchema,
  metadataResultSchema,
  parseResultSchema,
  scanResultSchema,
  validateResultSchema,
} from "./sql-result-schemas.js";
import {
  dialectParam,
  flagParam,
  indentSizeParam,
  schemaParam,
  sqlParam,
  targetDialectParam,
  textDialectParam,
} from "./sql-tool-params.js";
import { runSqlToolCall, type SqlToolCall, type SqlToolRunner } from "./sql-tool-call.js";

/**
 * The SQL tools of `sqlsvc-mcp` over a toolkit: exactly the seed's seven (`validate_sql`,
 * `format_sql`, `parse_sql`, `extract_metadata`, `security_scan`, `lint_sql`, `analyze_sql`).
 * All are read-only and idempotent, and each advertises its result's schema (`outputSchema`).
 * New capabilities are optional parameters, off by default, and a result gains fields only when
 * one is asked for (`lint_sql` `fix`/`compact`, `format_sql` `target_dialect`, `validate_sql`
 * `schema`, `extract_metadata` `lineage`): without them every result has the seed's shape. The
 * descriptions are written for the model choosing a tool: what it returns, when to use it, and
 * what a failure looks like. Calls run through `runner` when given (the HTTP
 * server's `BudgetedSqlRunner`: large texts in a worker thread under a time budget), else
 * in-process on `toolkit`.
 *
 * @example
 * const catalog = createToolCatalog(createSqlTools(createSqlToolkit(parser)));
 */
export function createSqlTools(toolkit: SqlToolkit, runner?: SqlToolRunner): McpTool[] {
  const run = (call: SqlToolCall) =>
    runner === undefined ? runSqlToolCall(toolkit, call) : runner.run(call);
  return [
    defineMcpTool({
      name: "validate_sql",
      title: "Validate SQL",
      description:
        "Check whether SQL is syntactically valid, optionally for one dialect. Returns " +
        "{valid, error?, dialect?}: valid=false with an error naming line, column and reason when " +
        "it is not (invalid SQL is a normal answer, not a failure). With a dialect, syntax only " +
        "another dialect accepts is rejected (e.g. SELECT TOP is sqlserver only, LIMIT is not " +
        "sqlserver). The dialect is echoed back when given. Optional schema (tables and their " +
        "columns) also checks names: unknown tables or columns and ambiguous references are " +
        "errors with line and column (adds errors and schema_checked).",
      input: v.object({
        sql: sqlParam("The SQL to validate (one or more statements)."),
        dialect: dialectParam,
        schema: schemaParam,
      }),
      output: validateResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, dialect, schema }) =>
        run(
          schema === undefined
            ? { tool: "validate", sql, dialect }
            : { tool: "validate", sql, dialect, schema },
        ),
    }),
    defineMcpTool({
      name: "format_sql",
      title: "Format SQL",
      description:
        "Reformat SQL into a consistent layout without changing its meaning; comments are kept. " +
        "Returns {formatted_sql, options} with the options used. uppercase_keywords=true " +
        "upper-cases keywords (false keeps their case), add_semicolon=true ends every statement " +
        "with ';'. Fails only for text that cannot be tokenised, such as an unterminated string. " +
        "Optional target_dialect transpiles from dialect to it first (SELECT TOP 5 → LIMIT 5), " +
        "echoed as target_dialect; then SQL that does not parse fails too.",
      input: v.object({
        sql: sqlParam("The SQL to format."),
        indent_size: indentSizeParam,
        uppercase_keywords: flagParam(
          "uppercase_keywords",
          "Upper-case SQL keywords (default false: keep their case).",
        ),
        add_semicolon: flagParam(
          "add_semicolon",
          "End every statement with a semicolon (default false).",
        ),
        dialect: textDialectParam,
        target_dialect: targetDialectParam,
      }),
      output: formatResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, indent_size, uppercase_keywords, add_semicolon, dialect, target_dialect }) =>
        run({
          tool: "format",
          sql,
          options: { indent_size, uppercase_keywords, add_semicolon },
          dialect,
          ...(target_dialect === undefined ? {} : { targetDialect: target_dialect }),
        }),
    }),
    defineMcpTool({
      name: "parse_sql",
      title: "Parse SQL",
      description:
        "Parse SQL and summarise it: {statement_count, statement_types}, types named like " +
        "*ast.SelectStatement, *ast.InsertStatement or *ast.SetOperation (UNION/EXCEPT/INTERSECT). " +
        "Does not return the syntax tree. SQL that does not parse gives an error result starting " +
        "'parse failed:' with line and column.",
      input: v.object({ sql: sqlParam("The SQL to parse.") }),
      output: parseResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql }) => run({ tool: "parse", sql }),
    }),
    defineMcpTool({
      name: "extract_metadata",
      title: "Extract SQL metadata",
      description:
        "List the tables, columns and functions SQL refers to: {tables, columns, functions}, in " +
        "order of first appearance. Tables keep qualified names whole (schema.table); CTE names " +
        "are not tables; a column appears once per table it belongs to (u.id and o.id give id " +
        "twice). SQL that does not parse gives an error result starting 'parse failed:'. " +
        "Optional lineage=true adds lineage[{statement, column, sources}]: the table columns " +
        "each output column is computed from.",
      input: v.object({
        sql: sqlParam("The SQL to analyse."),
        lineage: flagParam(
          "lineage",
          "Add lineage: for each output column of each query, the table columns (table.column) " +
            "it is computed from, through aliases, CTEs and subqueries (default false; at most " +
            "500 columns are traced).",
        ),
      }),
      output: metadataResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, lineage }) =>
        run(lineage ? { tool: "metadata", sql, lineage: true } : { tool: "metadata", sql }),
    }),
    defineMcpTool({
      name: "security_scan",
      title: "Scan SQL for injection",
      description:
        "Look for SQL injection patterns: tautologies (OR 1=1), UNION-based extraction, stacked " +
        "queries, comment bypasses, time delays, out-of-band and dangerous functions. Returns " +
        "{is_clean, has_critical, has_high, total_count, critical_count, high_count, medium_count, " +
        "low_count, findings[{severity, pattern, description, risk, suggestion}]}. Understands " +
        "strings and comments, so keywords inside literals are not flagged. Works on any text.",
      input: v.object({ sql: sqlParam("The SQL (or SQL-bearing input) to scan.") }),
      output: scanResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql }) => run({ tool: "scan", sql }),
    }),
    defineMcpTool({
      name: "lint_sql",
      title: "Lint SQL style",
      description:
        "Check SQL style against rules L001-L010 (trailing whitespace, mixed indentation, blank " +
        "lines, indentation depth, long lines, column alignment, keyword case, comma placement, " +
        "aliasing, redundant whitespace). Returns {violation_count, violations[{rule, rule_name, " +
        "severity, message, line, column, suggestion}]} sorted by position; works on SQL that " +
        "does not parse. Optional: rules/exclude_rules (codes or names), dialect, rule_options " +
        "(per-rule settings); '-- noqa' comments in the SQL silence rules as in SQLFluff. " +
        "fix=true also returns fixed_sql (whitespace, keyword case and comma fixes that cannot " +
        "change meaning), changed, fixed_count and remaining (the violations left); " +
        "compact=true lists each violation as one line 'CODE line:col message'.",
      input: v.object({
        sql: sqlParam("The SQL to lint."),
        ...lintOptionEntries,
        dialect: textDialectParam,
        fix: flagParam(
          "fix",
          "Also apply the safe fixes and return fixed_sql, changed, fixed_count and remaining " +
            "(the violations left after fixing). Read-only: nothing is written (default false).",
        ),
        compact: flagParam(
          "compact",
          "One line per violation: code, line:col, message; no suggestion (default false).",
        ),
      }),
      output: lintResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, fix, compact, ...options }) =>
        run({
          tool: "lint",
          sql,
          options: toLintOptions(options),
          ...(fix ? { fix: true } : {}),
          ...(compact ? { compact: true } : {}),
        }),
    }),
    defineMcpTool({
      name: "analyze_sql",
      title: "Analyse SQL (all tools)",
      description:
        "Run validate, parse, metadata, security, lint and format (default options) in one call " +
        "and return {validate, parse, metadata, security, lint, format}. When a part fails (for " +
        "example parse on invalid SQL) its key is missing and its message is under errors; the " +
        "other parts are still returned. Prefer it for a first look at unknown SQL.",
      input: v.object({ sql: sqlParam("The SQL to analyse.") }),
      output: analyzeResultSchema,
      annotations: READ_ONLY_TOOL,
      handler: ({ sql }) => run({ tool: "analyze", sql }),
    }),
  ];
}
