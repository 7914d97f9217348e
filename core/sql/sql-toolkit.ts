import type { SqlParser } from "../ports/sql-parser.js";
import { analyzeSql, type SqlTextAnalysers } from "./analyze.js";
import { formatSql } from "./format.js";
import { lintSql } from "./lint/index.js";
import { extractMetadata } from "./metadata.js";
import { parseSql } from "./parse.js";
import type { SqlToolkit } from "./results.js";
import { scanSql } from "./security/index.js";
import { validateSql } from "./validate.js";

const TEXT_ANALYSERS: SqlTextAnalysers = {
  lint: (sql, tokens) => lintSql(sql, undefined, tokens),
  scan: (sql, tokens) => scanSql(sql, undefined, tokens),
};

/**
 * The seven SQL tools over one parser (which must be loaded). Pure and synchronous.
 *
 * @example
 * const parser = createDefaultSqlParser(); // adapters/sql
 * await parser.load();
 * const tools = createSqlToolkit(parser);
 * tools.validate("SELECT TOP 5 * FROM t", "sqlserver"); // { valid: true, dialect: "sqlserver" }
 * tools.parse("SELECT 1; SELECT 2"); // { ok: true, result: { statement_count: 2, … } }
 */
export function createSqlToolkit(parser: SqlParser): SqlToolkit {
  return {
    validate: (sql, dialect) => validateSql(parser, sql, dialect),
    format: (sql, options) => formatSql(sql, options),
    parse: (sql) => parseSql(parser, sql),
    metadata: (sql) => extractMetadata(parser, sql),
    scan: (sql) => scanSql(sql),
    lint: (sql, options) => lintSql(sql, options),
    analyze: (sql) => analyzeSql(parser, sql, TEXT_ANALYSERS),
  };
}
