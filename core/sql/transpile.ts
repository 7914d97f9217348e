import type { SqlParser } from "../ports/sql-parser.js";
import type { SqlSemantics } from "../ports/sql-semantics.js";
import type { SqlDialect } from "./dialects.js";
import { formatSql } from "./format.js";
import type { FormatOptions, FormatResult, ToolOutcome } from "./results.js";
import { describeSyntaxError } from "./syntax-error.js";
import { findSyntaxError } from "./validate.js";

/**
 * `format_sql` with a `target_dialect`: `sql` is read as `from`, rewritten for `to` (functions,
 * row limits, quoting: `SELECT TOP 5` becomes `… LIMIT 5` for PostgreSQL), and the result laid
 * out by {@link formatSql} in the target dialect with the same options. The result echoes
 * `target` as `target_dialect`. SQL that is not valid in `from` (as `validate_sql` judges it:
 * the transpiler alone reads some garbage as SQL) or that the transpiler cannot read is a tool
 * error starting `format failed: cannot transpile from <from> to <to>: line L, column C: …`; so
 * is a transpiled text that is not valid in `to` (`…: the result is not valid <to> SQL (…)`).
 *
 * @example
 * transpileSql(parser, semantics, "SELECT TOP 5 name FROM users", {}, "sqlserver", "postgresql", "postgresql");
 * // { ok: true, result: { formatted_sql: "SELECT name\nFROM users\nLIMIT 5", options: {…}, target_dialect: "postgresql" } }
 */
export function transpileSql(
  parser: SqlParser,
  semantics: SqlSemantics,
  sql: string,
  options: Partial<FormatOptions> | undefined,
  from: SqlDialect,
  to: SqlDialect,
  target: string,
): ToolOutcome<FormatResult> {
  const cannot = `format failed: cannot transpile from ${from} to ${to}`;
  const invalid = findSyntaxError(parser, sql, from);
  if (invalid !== undefined)
    return { ok: false, error: `${cannot}: ${describeSyntaxError(invalid)}` };
  const result = semantics.transpile(sql, from, to);
  if (!result.ok) return { ok: false, error: `${cannot}: ${describeSyntaxError(result.error)}` };
  if (result.statements.length === 0) {
    return {
      ok: false,
      error: `format failed: cannot transpile from ${from} to ${to}: no statement found`,
    };
  }
  const output = result.statements.join(";\n");
  // The transpiler passes through what it cannot rewrite (SQLite's PRAGMA for MySQL, T-SQL's
  // TOP … PERCENT) and writes a few things wrong (TOP n becomes LIMIT n for Oracle): SQL the
  // target rejects is an error, not a result.
  const rejected = findSyntaxError(parser, output, to);
  if (rejected !== undefined) {
    const line = (output.split("\n")[rejected.line - 1] ?? "").slice(0, 120);
    return {
      ok: false,
      error: `${cannot}: the result is not valid ${to} SQL: ${rejected.reason} (line ${rejected.line} of the result: ${JSON.stringify(line)})`,
    };
  }
  const formatted = formatSql(output, options, undefined, to);
  if (!formatted.ok) return formatted;
  return { ok: true, result: { ...formatted.result, target_dialect: target } };
}
