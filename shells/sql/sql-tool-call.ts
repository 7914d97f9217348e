import type { FormatOptions, SqlToolkit } from "../../core/sql/results.js";
import type { ToolReply } from "../mcp/mcp-tool.js";

/**
 * One SQL tool call with its validated arguments: plain data, so it can cross to a worker thread.
 *
 * @example
 * const call: SqlToolCall = { tool: "validate", sql: "SELECT 1", dialect: "mysql" };
 */
export type SqlToolCall =
  | { readonly tool: "validate"; readonly sql: string; readonly dialect?: string | undefined }
  | {
      readonly tool: "format";
      readonly sql: string;
      readonly options: Partial<FormatOptions>;
      readonly dialect?: string | undefined;
    }
  | { readonly tool: "parse" | "metadata" | "scan" | "analyze"; readonly sql: string }
  | { readonly tool: "lint"; readonly sql: string; readonly dialect?: string | undefined };

/**
 * Runs `call` on `toolkit` and answers what the MCP tool replies: tools that cannot fail on the
 * SQL (validate, scan, lint, analyze) always succeed; format, parse and metadata pass their
 * outcome through.
 *
 * @example
 * runSqlToolCall(toolkit, { tool: "parse", sql: "SELECT 1" });
 * // { ok: true, result: { statement_count: 1, statement_types: ["*ast.SelectStatement"] } }
 */
export function runSqlToolCall(toolkit: SqlToolkit, call: SqlToolCall): ToolReply {
  switch (call.tool) {
    case "validate":
      return { ok: true, result: toolkit.validate(call.sql, call.dialect) };
    case "format":
      return toolkit.format(call.sql, call.options, call.dialect);
    case "parse":
      return toolkit.parse(call.sql);
    case "metadata":
      return toolkit.metadata(call.sql);
    case "scan":
      return { ok: true, result: toolkit.scan(call.sql) };
    case "lint":
      return { ok: true, result: toolkit.lint(call.sql, call.dialect) };
    case "analyze":
      return { ok: true, result: toolkit.analyze(call.sql) };
  }
}

/**
 * Where SQL tool calls run: in-process, or (`BudgetedSqlRunner`) in a worker thread that is
 * stopped when a call runs past its budget.
 *
 * @example
 * const inline: SqlToolRunner = { run: (call) => runSqlToolCall(toolkit, call) };
 */
export interface SqlToolRunner {
  run(call: SqlToolCall): ToolReply | Promise<ToolReply>;
}
