import type { ParsedStatement, SqlParseOptions, SqlParser } from "../ports/sql-parser.js";
import { fromParse } from "./parse.js";
import type { MetadataResult, ToolOutcome } from "./results.js";

/**
 * `extract_metadata` from parsed statements, in first-seen order. Tables and functions appear
 * once. A column name appears as often as the statement that uses it most distinct (table,
 * column) pairs needs (`u.id` and `o.id` give `id` twice; a second statement using `id` again
 * adds nothing).
 *
 * @example
 * toMetadataResult(parser.parse("SELECT u.id, o.id FROM users u JOIN orders o ON u.id = o.uid", "generic").statements);
 * // { tables: ["users", "orders"], columns: ["id", "id", "uid"], functions: [] }
 */
export function toMetadataResult(statements: readonly ParsedStatement[]): MetadataResult {
  if (statements.length === 1) {
    const only = statements[0] as ParsedStatement;
    return { tables: [...only.tables], columns: [...only.columns], functions: [...only.functions] };
  }
  const tables = new Set<string>();
  const functions = new Set<string>();
  const columns: string[] = [];
  const emitted = new Map<string, number>();
  for (const statement of statements) {
    for (const table of statement.tables) tables.add(table);
    for (const fn of statement.functions) functions.add(fn);
    const here = new Map<string, number>();
    for (const column of statement.columns) {
      const count = (here.get(column) ?? 0) + 1;
      here.set(column, count);
      if (count > (emitted.get(column) ?? 0)) {
        emitted.set(column, count);
        columns.push(column);
      }
    }
  }
  return { tables: [...tables], columns, functions: [...functions] };
}

/**
 * `extract_metadata`: tables, columns and functions of `sql` (generic dialect), or
 * `parse failed: line L, column C: …`.
 *
 * @example
 * extractMetadata(parser, "SELECT COUNT(*) FROM orders");
 * // { ok: true, result: { tables: ["orders"], columns: [], functions: ["COUNT"] } }
 */
export function extractMetadata(parser: SqlParser, sql: string): ToolOutcome<MetadataResult> {
  return fromParse(parser.parse(sql, "generic", NAMES), toMetadataResult);
}

/** Every name list is read: the parser may build them in its one pass over the tree. */
const NAMES: SqlParseOptions = { names: true };
