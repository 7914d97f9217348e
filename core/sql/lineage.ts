import type { SqlSemantics } from "../ports/sql-semantics.js";
import type { SqlDialect } from "./dialects.js";
import type { ColumnLineage } from "./results.js";
import { isSignificant } from "./token.js";
import { tokenize } from "./tokenizer.js";

/**
 * Most output columns traced in one call: each is one pass of the engine over its statement, so
 * the cap keeps a call on 256 KiB of columns linear (the columns after it are not listed).
 */
export const MAX_LINEAGE_COLUMNS = 500;

/**
 * The lineage of every query in `sql`: for each output column of each statement, the table
 * columns it is computed from, through aliases, CTEs, derived tables and set operations.
 * Statements without output columns (DDL, a plain INSERT) add nothing. At most
 * {@link MAX_LINEAGE_COLUMNS} columns are traced.
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
  const statements = splitStatements(sql);
  for (let i = 0; i < statements.length && out.length < MAX_LINEAGE_COLUMNS; i++) {
    const traced = semantics.lineage(
      statements[i] as string,
      dialect,
      MAX_LINEAGE_COLUMNS - out.length,
    );
    for (const column of traced ?? []) {
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
