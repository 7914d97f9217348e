/**
 * Where the in-process time of `validate_sql`, `parse_sql` and `extract_metadata` goes, on the
 * 1-, 5- and 60-line queries of the side-by-side benchmark
 * (`tests/fixtures/reference/sql-bench-queries.sql`): the whole MCP call without sockets (the
 * lane's `tryFastPath` over the tool catalog: JSON-RPC message in, response body out), the core
 * tool alone, and the stages of the PostgreSQL route: the WASM parse with its JSON print and
 * decode, `JSON.parse` of the tree, the statement outline and the one-statement shortcut
 * (`parse_sql`'s kinds), the name walk on a parsed tree, and the names of the tree's JSON text
 * both ways (`JSON.parse` and the walk, the one-pass reader `extract_metadata` uses).
 * Prints µs per call, the median of 7 rounds of 60 ms, and the load average; no assertions.
 *
 *   npx tsx bench/sql-tool-stages.ts
 *   BENCH_QUERIES=1,5 npx tsx bench/sql-tool-stages.ts
 */
import { loadavg } from "node:os";
import { createDefaultSqlParser } from "../adapters/sql/index.js";
import { onePgStatementKind } from "../adapters/sql/pg-json-kinds.js";
import { readPgStatements } from "../adapters/sql/pg-json-names.js";
import { outlinePgStatements, type PgNode } from "../adapters/sql/pg-json-outline.js";
import { PgQueryWasm } from "../adapters/sql/pg-query-wasm.js";
import { PgStatement, pgStatementKind } from "../adapters/sql/pg-statement.js";
import { SourceText } from "../adapters/sql/source-text.js";
import { extractMetadata } from "../core/sql/metadata.js";
import { parseSql } from "../core/sql/parse.js";
import { createSqlToolkit } from "../core/sql/sql-toolkit.js";
import { validateSql } from "../core/sql/validate.js";
import { tryFastPath } from "../shells/common/mcp/mcp-lane-route.js";
import { createToolCatalog } from "../shells/common/mcp/tool-catalog.js";
import { createSqlTools } from "../shells/sqlsvc/sql-tools.js";
import { medianMicroseconds } from "./support/median-microseconds.js";
import { sqlBenchQueries } from "./support/sql-bench-queries.js";

const microseconds = (fn: () => unknown): number =>
  medianMicroseconds(fn, { rounds: 7, roundMs: 60 });

const parser = await createDefaultSqlParser();
const toolkit = createSqlToolkit(parser);
const catalog = createToolCatalog(createSqlTools(toolkit));
const wasm = await PgQueryWasm.load();
const measured = (process.env["BENCH_QUERIES"] ?? "1,5,60").split(",");

let id = 0;
function laneCall(tool: string, sql: string): () => unknown {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: tool, arguments: { sql } },
  });
  return () => {
    const message = JSON.parse(body) as { id: number };
    message.id = ++id;
    return tryFastPath(message, catalog);
  };
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
for (const [lines, sql] of Object.entries(
  sqlBenchQueries({ small: "1", medium: "5", large: "60" }),
)) {
  if (!measured.includes(lines)) continue;
  const raw = wasm.parse(sql);
  if (!raw.ok) throw new Error(`bench query does not parse: ${raw.message}`);
  const json = raw.json;
  const tree = (JSON.parse(json) as { stmts: { stmt: PgNode }[] }).stmts.map((e) => e.stmt);
  const source = new SourceText(sql);
  const figures: [string, () => unknown][] = [
    ["lane validate", laneCall("validate_sql", sql)],
    ["lane parse", laneCall("parse_sql", sql)],
    ["lane metadata", laneCall("extract_metadata", sql)],
    ["validateSql", () => validateSql(parser, sql)],
    ["parseSql", () => parseSql(parser, sql)],
    ["extractMetadata", () => extractMetadata(parser, sql)],
    ["wasm check", () => wasm.check(sql)],
    ["wasm parse+decode", () => wasm.parse(sql)],
    ["JSON.parse tree", () => JSON.parse(json) as unknown],
    ["outline", () => outlinePgStatements(json)],
    ["one statement's kind", () => onePgStatementKind(json)],
    [
      "walk parsed tree",
      () => tree.map((stmt) => new PgStatement(pgStatementKind(stmt), () => stmt, source).tables),
    ],
    [
      "names by JSON.parse+walk",
      () =>
        (JSON.parse(json) as { stmts: { stmt: PgNode }[] }).stmts.map(
          (e) => new PgStatement(pgStatementKind(e.stmt), () => e.stmt, new SourceText(sql)).tables,
        ),
    ],
    ["names by one-pass reader", () => readPgStatements(json, new SourceText(sql))],
  ];
  // Every path warmed up before any is measured (the first measured one paid for the JIT).
  for (const [, fn] of figures) for (let i = 0; i < 2000; i++) fn();
  const row = figures.map(([name, fn]) => `${name} ${microseconds(fn).toFixed(1)}`);
  console.log(`${lines} line(s), tree ${json.length} B, µs/call: ${row.join(", ")}`);
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);
