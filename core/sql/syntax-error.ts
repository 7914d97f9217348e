import type { SqlSyntaxError } from "../ports/sql-parser.js";

/**
 * `line L, column C: reason`, the position-first text every SQL tool error uses (after its
 * prefix: `invalid SQL: `, `parse failed: `).
 *
 * @example
 * describeSyntaxError({ line: 1, column: 8, reason: "unexpected FROM" });
 * // "line 1, column 8: unexpected FROM"
 */
export function describeSyntaxError(error: SqlSyntaxError): string {
  return `line ${error.line}, column ${error.column}: ${error.reason}`;
}
