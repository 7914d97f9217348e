import type { FormatOptions, LintOptions, SqlToolkit } from "../../core/sql/results.js";
import type { ToolReply } from "../common/mcp/mcp-tool.js";

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
  | { readonly tool: "lint" | "fix"; readonly sql: string; readonly options: LintOptions };

/**
 * Runs `call` on `toolkit` and answers what the MCP tool replies (the toolkit's outcome as is).
 *
 * @example
 * runSqlToolCall(toolkit, { tool: "parse", sql: "SELECT 1" });
 * // { ok: true, result: { statement_count: 1, statement_types: ["*ast.SelectStatement"] } }
 */
export function runSqlToolCall(toolkit: SqlToolkit, call: SqlToolCall): ToolReply {
  switch (call.tool) {
    case "validate":
      return toolkit.validate(call.sql, call.dialect);
    case "format":
      return toolkit.format(call.sql, call.options, call.dialect);
    case "parse":
      return toolkit.parse(call.sql);
    case "metadata":
      return toolkit.metadata(call.sql);
    case "scan":
      return toolkit.scan(call.sql);
    case "lint":
      return toolkit.lint(call.sql, call.options);
    case "fix":
      return toolkit.fix(call.sql, call.options);
    case "analyze":
      return toolkit.analyze(call.sql);
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
