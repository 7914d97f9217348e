import type { ParsedStatement, SqlParseResult, SqlParser } from "../ports/sql-parser.js";
import type { ParseResult, ToolOutcome } from "./results.js";
import { describeSyntaxError } from "./syntax-error.js";

/**
 * The reference server's type name for a statement kind: `*ast.<Kind>Statement`, except set
 * operations, which it names `*ast.SetOperation`.
 *
 * @example
 * statementTypeName("Select"); // "*ast.SelectStatement"
 * statementTypeName("SetOperation"); // "*ast.SetOperation"
 */
export function statementTypeName(kind: string): string {
  return kind === "SetOperation" ? "*ast.SetOperation" : `*ast.${kind}Statement`;
}

/**
 * `parse_sql` from statements already parsed (analyze_sql shares one parse).
 *
 * @example
 * toParseResult([{ kind: "Select", tables: [], columns: [], functions: [] }]);
 * // { statement_count: 1, statement_types: ["*ast.SelectStatement"] }
 */
export function toParseResult(statements: readonly ParsedStatement[]): ParseResult {
  return {
    statement_count: statements.length,
    statement_types: statements.map((s) => statementTypeName(s.kind)),
  };
}

/**
 * A parse outcome as a tool outcome: the mapped result, or `parse failed: line L, column C: …`.
 *
 * @example
 * fromParse(parser.parse("SELECT FROM", "generic"), toParseResult);
 * // { ok: false, error: "parse failed: line 1, column 12: unexpected end of input" }
 */
export function fromParse<T>(
  parsed: SqlParseResult,
  map: (statements: readonly ParsedStatement[]) => T,
): ToolOutcome<T> {
  if (!parsed.ok) return { ok: false, error: `parse failed: ${describeSyntaxError(parsed.error)}` };
  return { ok: true, result: map(parsed.statements) };
}

/**
 * `parse_sql`: statement count and `*ast.<Kind>Statement` names (generic dialect; empty
 * statements such as `;;` are skipped).
 *
 * @example
 * parseSql(parser, "SELECT 1; INSERT INTO t VALUES (1)");
 * // { ok: true, result: { statement_count: 2, statement_types: ["*ast.SelectStatement", "*ast.InsertStatement"] } }
 */
export function parseSql(parser: SqlParser, sql: string): ToolOutcome<ParseResult> {
  return fromParse(parser.parse(sql, "generic"), toParseResult);
}
