import type { SqlSemantics } from "../ports/sql-semantics.js";
import type { SqlDialect } from "./dialects.js";
import type { ColumnLineage } from "./results.js";
import { isSignificant } from "./token.js";
import { tokenize } from "./tokenizer.js";

/**
 * Most output columns traced in one call. Tracing a column re-reads its whole statement (and the
 * engine resolves every column of it each time), so the caps below keep a call's work bounded
 * whatever the text; the columns after them are not listed.
 */
export const MAX_LINEAGE_COLUMNS = 100;

/** Most characters of statement text read for lineage in one call (1 MiB). */
export const MAX_LINEAGE_WORK = 1024 * 1024;

/**
 * The lineage of every query in `sql`: for each output column of each statement, the table
 * columns it is computed from, through aliases, CTEs, derived tables and set operations.
 * Statements without output columns (DDL, a plain INSERT) add nothing. At most
 * {@link MAX_LINEAGE_COLUMNS} columns are traced, and statements are read for at most
 * {@link MAX_LINEAGE_WORK} characters in all.
 *
 * @example
 * traceLineage(semantics, "SELECT u.name, SUM(o.amount) AS total FROM users u JOIN orders o ON u.id = o.user_id GROUP BY u.name", "generic");
 * // [{ statement: 1, column: "name", sources: ["users.name"] }, { statement: 1, column: "total", sources: ["orders.amount"] }]
 */
export function traceLineage(
  semantics: SqlSemantics,
  sql: string,
  dialect: SqlDialect,
): ColumnLineage[] {
  const out: ColumnLineage[] = [];
  let work = MAX_LINEAGE_WORK;
  const statements = splitStatements(sql);
  for (let i = 0; i < statements.length; i++) {
    const statement = statements[i] as string;
    // One read to list the output columns, one per column traced.
    const reads = Math.floor(work / Math.max(1, statement.length));
    const allowed = Math.min(MAX_LINEAGE_COLUMNS - out.length, reads - 1);
    if (allowed <= 0) break;
    const traced = semantics.lineage(statement, dialect, allowed) ?? [];
    work -= statement.length * (traced.length + 1);
    for (const column of traced) {
      out.push({ statement: i + 1, column: column.column, sources: [...column.sources] });
    }
  }
  return out;
}

/** The texts of the statements of `sql`: split at `;` outside parentheses, empty ones skipped. */
function splitStatements(sql: string): string[] {
  const texts: string[] = [];
  let depth = 0;
  let start = 0;
  let code = false;
  for (const t of tokenize(sql)) {
    if (!isSignificant(t)) continue;
    if (t.kind === "punctuation" && t.text === "(") depth++;
    else if (t.kind === "punctuation" && t.text === ")") depth = Math.max(0, depth - 1);
    else if (t.kind === "punctuation" && t.text === ";" && depth === 0) {
      if (code) texts.push(sql.slice(start, t.start));
      start = t.end;
      code = false;
      continue;
    }
    code = true;
  }
  if (code) texts.push(sql.slice(start));
  return texts;
}
