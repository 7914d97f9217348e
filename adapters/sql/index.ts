/**
 * SQL parser adapters: PostgreSQL's own parser (libpg-query), the polyglot multi-dialect engine,
 * and the router that picks a real grammar per dialect.
 */
import { RoutingSqlParser } from "./routing-sql-parser.js";

export { LibpgQuerySqlParser } from "./libpg-query-sql-parser.js";
export { PolyglotSqlParser } from "./polyglot-sql-parser.js";
export { RoutingSqlParser, type RoutingSqlParserOptions } from "./routing-sql-parser.js";

/**
 * The parser the SQL tools use, ready to parse: a {@link RoutingSqlParser} over fresh
 * libpg-query and polyglot parsers, loaded (both WASM modules compiled, ~0.25 s).
 *
 * @example
 * const tools = createSqlToolkit(await createDefaultSqlParser());
 */
export async function createDefaultSqlParser(): Promise<RoutingSqlParser> {
  const parser = new RoutingSqlParser();
  await parser.load();
  return parser;
}
