import * as v from "valibot";
import type { SqlToolkit } from "../../core/sql/results.js";
import { defineMcpTool, READ_ONLY_TOOL, type McpTool } from "../common/mcp/mcp-tool.js";
import { lintOptionEntries, toLintOptions } from "./lint/lint-options-schema.js";
import {
  dialectParam,
  flagParam,
  indentSizeParam,
  sqlParam,
  textDialectParam,
} from "./sql-tool-params.js";
import { runSqlToolCall, type SqlToolCall, type SqlToolRunner } from "./sql-tool-call.js";

/**
 * The SQL tools of `sqlsvc-mcp` over a toolkit: the seed's seven (`validate_sql`, `format_sql`,
 * `parse_sql`, `extract_metadata`, `security_scan`, `lint_sql`, `analyze_sql`) and `fix_sql`. All are read-only and
 * idempotent. The descriptions are written for the model choosing a tool: what it returns, when
 * to use it, and what a failure looks like. Calls run through `runner` when given (the HTTP
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
        "sqlserver). The dialect is echoed back when given.",
      input: v.object({
        sql: sqlParam("The SQL to validate (one or more statements)."),
        dialect: dialectParam,
      }),
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, dialect }) => run({ tool: "validate", sql, dialect }),
    }),
    defineMcpTool({
      name: "format_sql",
      title: "Format SQL",
      description:
        "Reformat SQL into a consistent layout without changing its meaning; comments are kept. " +
        "Returns {formatted_sql, options} with the options used. uppercase_keywords=true " +
        "upper-cases keywords (false keeps their case), add_semicolon=true ends every statement " +
        "with ';'. Fails only for text that cannot be tokenised, such as an unterminated string.",
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
      }),
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, indent_size, uppercase_keywords, add_semicolon, dialect }) =>
        run({
          tool: "format",
          sql,
          options: { indent_size, uppercase_keywords, add_semicolon },
          dialect,
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
        "twice). SQL that does not parse gives an error result starting 'parse failed:'.",
      input: v.object({ sql: sqlParam("The SQL to analyse.") }),
      annotations: READ_ONLY_TOOL,
      handler: ({ sql }) => run({ tool: "metadata", sql }),
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
        "(per-rule settings); '-- noqa' comments in the SQL silence rules as in SQLFluff.",
      input: v.object({
        sql: sqlParam("The SQL to lint."),
        ...lintOptionEntries,
        dialect: textDialectParam,
      }),
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, ...options }) => run({ tool: "lint", sql, options: toLintOptions(options) }),
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
      annotations: READ_ONLY_TOOL,
      handler: ({ sql }) => run({ tool: "analyze", sql }),
    }),
    defineMcpTool({
      name: "fix_sql",
      title: "Fix SQL style",
      description:
        "Apply the lint fixes that cannot change meaning (trailing whitespace L001, mixed " +
        "indentation L002, blank lines L003, keyword case L007, comma placement L008, redundant " +
        "spaces L010) and return {fixed_sql, changed, fixed_count, remaining: {violation_count, " +
        "violations}}. Read-only: it returns the text and writes nothing. Only whitespace, " +
        "keyword case and comma position change, never names, strings, numbers or comments. " +
        "Takes the same optional arguments as lint_sql.",
      input: v.object({
        sql: sqlParam("The SQL to fix."),
        ...lintOptionEntries,
        dialect: textDialectParam,
      }),
      annotations: READ_ONLY_TOOL,
      handler: ({ sql, ...options }) => run({ tool: "fix", sql, options: toLintOptions(options) }),
    }),
  ];
}
