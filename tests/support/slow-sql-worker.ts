/**
 * A SQL worker thread for the budget tests: a toolkit whose every tool answers at once, except
 * on text starting with `SLOW`, where it computes forever (a synchronous loop, like a WASM parser
 * stuck on a costly input).
 */
import { parentPort } from "node:worker_threads";
import type { SqlToolkit } from "../../core/sql/results.js";
import { serveSqlCalls } from "../../shells/sqlsvc/serve-sql-calls.js";

function spinIfSlow(sql: string): void {
  if (!sql.startsWith("SLOW")) return;
  let x = 0;
  for (;;) x = (x * 31 + 7) % 1_000_003;
}

const toolkit: SqlToolkit = {
  validate: (sql) => (spinIfSlow(sql), { ok: true, result: { valid: true } }),
  format: (sql, options) => (
    spinIfSlow(sql),
    {
      ok: true,
      result: {
        formatted_sql: sql.slice(0, 10),
        options: { indent_size: 2, uppercase_keywords: false, add_semicolon: false, ...options },
      },
    }
  ),
  parse: (sql) => (
    spinIfSlow(sql),
    { ok: true, result: { statement_count: 1, statement_types: ["*ast.SelectStatement"] } }
  ),
  metadata: (sql) => (
    spinIfSlow(sql),
    { ok: true, result: { tables: [], columns: [], functions: [] } }
  ),
  scan: (sql) => (
    spinIfSlow(sql),
    {
      ok: true,
      result: {
        is_clean: true,
        has_critical: false,
        has_high: false,
        total_count: 0,
        critical_count: 0,
        high_count: 0,
        medium_count: 0,
        low_count: 0,
        findings: [],
      },
    }
  ),
  lint: (sql) => (spinIfSlow(sql), { ok: true, result: { violation_count: 0, violations: [] } }),
  fix: (sql) => (
    spinIfSlow(sql),
    {
      ok: true,
      result: {
        fixed_sql: sql,
        changed: false,
        fixed_count: 0,
        remaining: { violation_count: 0, violations: [] },
      },
    }
  ),
  analyze: (sql) => (spinIfSlow(sql), { ok: true, result: {} }),
};

if (parentPort !== null) await serveSqlCalls(parentPort, () => Promise.resolve(toolkit));
