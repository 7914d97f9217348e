/**
 * Per-call cost of the SQL tools on one-line, 5-line and 60-line queries, per dialect route.
 * Run: `npx tsx bench/sql-parsers.ts` (prints µs per call; no assertions).
 */
import { createDefaultSqlParser } from "../adapters/sql/index.js";
import type { SqlDialect } from "../core/sql/dialects.js";
import { formatSql } from "../core/sql/format.js";
import { extractMetadata } from "../core/sql/metadata.js";
import { parseSql } from "../core/sql/parse.js";
import { validateSql } from "../core/sql/validate.js";

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

function microseconds(fn: () => unknown, budgetMs = 400): number {
  for (let i = 0; i < 20; i++) fn();
  let runs = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budgetMs) {
    fn();
    runs++;
    now = performance.now();
  }
  return ((now - start) * 1000) / runs;
}

const parser = createDefaultSqlParser();
const loadStart = performance.now();
await parser.load();
console.log(`load: ${(performance.now() - loadStart).toFixed(0)} ms (libpg-query + polyglot)`);

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
  console.log(`${label.padEnd(9)} µs/call: ${rows.join(", ")}`);
}
