/**
 * SQL parser adapters: PostgreSQL's own parser (libpg-query), the polyglot multi-dialect engine,
 * and the router that picks a real grammar per dialect.
 */
import type { SqlParser } from "../../core/ports/sql-parser.js";
import { RoutingSqlParser } from "./routing-sql-parser.js";

export { LibpgQuerySqlParser, cleanPgMessage } from "./libpg-query-sql-parser.js";
export { PolyglotSqlParser } from "./polyglot-sql-parser.js";
export { RoutingSqlParser, type RoutingSqlParserOptions } from "./routing-sql-parser.js";

/**
 * The parser the SQL tools use: a {@link RoutingSqlParser} over fresh libpg-query and polyglot
 * parsers. Call `load()` once before the first parse.
 *
 * @example
 * const parser = createDefaultSqlParser();
 * await parser.load();
 * const tools = createSqlToolkit(parser);
 */
export function createDefaultSqlParser(): SqlParser & RoutingSqlParser {
  return new RoutingSqlParser();
}
