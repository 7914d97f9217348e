import type { SqlSchema } from "../../core/ports/sql-semantics.js";
import type { FormatOptions, LintOptions, SqlToolkit } from "../../core/sql/results.js";
import type { ToolReply } from "../common/mcp/mcp-tool.js";
import { compactLint } from "./compact-lint.js";

/**
 * One SQL tool call with its validated arguments: plain data, so it can cross to a worker thread.
 * Optional capabilities are absent (or false) unless the caller asked for them.
 *
 * @example
 * const call: SqlToolCall = { tool: "validate", sql: "SELECT 1", dialect: "mysql" };
 */
export type SqlToolCall =
  | {
      readonly tool: "validate";
      readonly sql: string;
      readonly dialect?: string | undefined;
      readonly schema?: SqlSchema | undefined;
    }
  | {
      readonly tool: "format";
      readonly sql: string;
      readonly options: Partial<FormatOptions>;
      readonly dialect?: string | undefined;
      readonly targetDialect?: string | undefined;
    }
  | { readonly tool: "parse" | "scan" | "analyze"; readonly sql: string }
  | { readonly tool: "metadata"; readonly sql: string; readonly lineage?: boolean | undefined }
  | {
      readonly tool: "lint";
      readonly sql: string;
      readonly options: LintOptions;
      /** Add `fixed_sql`, `changed`, `fixed_count` and `remaining` (the violations left). */
      readonly fix?: boolean | undefined;
      /** One line per violation (`CODE line:col message`) instead of an object. */
      readonly compact?: boolean | undefined;
    };

/**
 * Runs `call` on `toolkit` and answers what the MCP tool replies (the toolkit's outcome as is,
 * with `lint_sql`'s fix and compact options applied here).
 *
 * @example
 * runSqlToolCall(toolkit, { tool: "parse", sql: "SELECT 1" });
 * // { ok: true, result: { statement_count: 1, statement_types: ["*ast.SelectStatement"] } }
 */
export function runSqlToolCall(toolkit: SqlToolkit, call: SqlToolCall): ToolReply {
  switch (call.tool) {
    case "validate":
      return call.schema === undefined
        ? toolkit.validate(call.sql, call.dialect)
        : toolkit.validate(call.sql, call.dialect, { schema: call.schema });
    case "format":
      return toolkit.format(call.sql, call.options, call.dialect, call.targetDialect);
    case "parse":
      return toolkit.parse(call.sql);
    case "metadata":
      return call.lineage === true
        ? toolkit.metadata(call.sql, { lineage: true })
        : toolkit.metadata(call.sql);
    case "scan":
      return toolkit.scan(call.sql);
    case "lint":
      return lint(toolkit, call);
    case "analyze":
      return toolkit.analyze(call.sql);
  }
}

function lint(toolkit: SqlToolkit, call: Extract<SqlToolCall, { tool: "lint" }>): ToolReply {
  const linted = toolkit.lint(call.sql, call.options).result;
  const compact = call.compact === true;
  const base = compact ? compactLint(linted) : linted;
  if (call.fix !== true) return { ok: true, result: base };
  const { fixed_sql, changed, fixed_count, remaining } = toolkit.fix(call.sql, call.options).result;
  return {
    ok: true,
    result: {
      ...base,
      fixed_sql,
      changed,
      fixed_count,
      remaining: compact ? compactLint(remaining) : remaining,
    },
  };
}

/**
 * Where SQL tool calls run: in-process, or (`BudgetedSqlRunner`) in worker threads that are
 * stopped when a call runs past its budget.
 *
 * @example
 * const inline: SqlToolRunner = { run: (call) => runSqlToolCall(toolkit, call) };
 */
export interface SqlToolRunner {
  run(call: SqlToolCall): ToolReply | Promise<ToolReply>;
}
