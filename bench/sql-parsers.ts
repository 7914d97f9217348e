/**
 * Per-call cost of the SQL tools on one-line, 5-line and 60-line queries, per dialect route.
 * Run: `npx tsx bench/sql-parsers.ts` (prints µs per call; no assertions). Each figure is the
 * median of 5 rounds of 80 ms, so one noisy moment on a shared machine moves it less.
 */
import { createDefaultSqlParser } from "../adapters/sql/index.js";
import type { SqlDialect } from "../core/sql/dialects.js";
import { formatSql } from "../core/sql/format.js";
import { extractMetadata } from "../core/sql/metadata.js";
import { parseSql } from "../core/sql/parse.js";
import { createSqlToolkit } from "../core/sql/sql-toolkit.js";
import { validateSql } from "../core/sql/validate.js";
import { medianMicroseconds } from "./support/median-microseconds.js";

const ONE_LINE = "SELECT id, name FROM users WHERE active = 1";
const FIVE_LINES = `SELECT u.id, u.name, COUNT(o.id) AS orders
FROM users u
LEFT JOIN orders o ON o.user_id = u.id
WHERE u.active = 1 AND u.created_at > '2024-01-01'
GROUP BY u.id, u.name ORDER BY orders DESC`;
const SIXTY_LINES = Array.from(
  { length: 12 },
  (_, i) => `SELECT c${i}.id, UPPER(c${i}.name) AS n${i}
FROM customers c${i}
JOIN invoices v${i} ON v${i}.customer_id = c${i}.id
WHERE v${i}.total > ${i * 10} AND c${i}.region IN ('north', 'south')
  AND EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = v${i}.id)`,
).join("\nUNION ALL\n");

const QUERIES: Record<string, string> = {
  "1 line": ONE_LINE,
  "5 lines": FIVE_LINES,
  "60 lines": SIXTY_LINES,
};

const microseconds = (fn: () => unknown): number =>
  medianMicroseconds(fn, { rounds: 5, roundMs: 80, warmup: 20 });

const loadStart = performance.now();
const parser = await createDefaultSqlParser();
console.log(`load: ${(performance.now() - loadStart).toFixed(0)} ms (libpg-query + polyglot)`);
const tools = createSqlToolkit(parser);

const dialects: SqlDialect[] = ["generic", "postgresql", "mysql", "sqlserver", "oracle"];
for (const [label, sql] of Object.entries(QUERIES)) {
  const rows: string[] = [];
  for (const dialect of dialects) {
    rows.push(
      `validate/${dialect} ${microseconds(() => validateSql(parser, sql, dialect)).toFixed(0)}`,
    );
  }
  rows.push(`parse ${microseconds(() => parseSql(parser, sql)).toFixed(0)}`);
  rows.push(`metadata ${microseconds(() => extractMetadata(parser, sql)).toFixed(0)}`);
  rows.push(`format ${microseconds(() => formatSql(sql)).toFixed(0)}`);
  rows.push(`analyze ${microseconds(() => tools.analyze(sql)).toFixed(0)}`);
  console.log(`${label.padEnd(9)} µs/call: ${rows.join(", ")}`);
}
