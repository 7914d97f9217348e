import { AgentServicesError } from "../errors.js";
import type { SqlParser } from "../ports/sql-parser.js";
import { analyzeSql, type SqlTextAnalysers } from "./analyze.js";
import { toSqlDialect, type SqlDialect } from "./dialects.js";
import { formatSql } from "./format.js";
import { fixSql, lintSql } from "./lint/index.js";
import { extractMetadata } from "./metadata.js";
import { parseSql } from "./parse.js";
import type { SqlToolkit, ToolSuccess } from "./results.js";
import { scanSql } from "./security/index.js";
import { validateSql } from "./validate.js";

/** The dialect named `name` (the shell has checked it); an unknown name is invalid input. */
function known(name: string): SqlDialect {
  const dialect = toSqlDialect(name);
  if (dialect === undefined) {
    throw new AgentServicesError("invalid_input", `dialect: unknown SQL dialect "${name}"`);
  }
  return dialect;
}

const TEXT_ANALYSERS: SqlTextAnalysers = {
  lint: (sql, tokens) => lintSql(sql, undefined, tokens),
  scan: (sql, tokens) => scanSql(sql, undefined, tokens),
};

/**
 * The seven SQL tools over one loaded parser. Pure and synchronous; every tool answers
 * `{ ok: true, result }` or `{ ok: false, error }` (see {@link SqlToolkit}).
 *
 * @example
 * const tools = createSqlToolkit(await createDefaultSqlParser()); // adapters/sql
 * tools.validate("SELECT TOP 5 * FROM t", "sqlserver"); // { ok: true, result: { valid: true, dialect: "sqlserver" } }
 * tools.parse("SELECT 1; SELECT 2"); // { ok: true, result: { statement_count: 2, … } }
 * tools.format("INSERT INTO t VALUES ('O\\'Reilly')", {}, "mysql").ok; // true
 */
export function createSqlToolkit(parser: SqlParser): SqlToolkit {
  return {
    validate: (sql, dialect) => ok(validateSql(parser, sql, dialect)),
    format: (sql, options, dialect) =>
      formatSql(sql, options, undefined, dialect === undefined ? "generic" : known(dialect)),
    parse: (sql) => parseSql(parser, sql),
    metadata: (sql) => extractMetadata(parser, sql),
    scan: (sql) => ok(scanSql(sql)),
    lint: (sql, options) => ok(lintSql(sql, options)),
    fix: (sql, options) => ok(fixSql(sql, options)),
    analyze: (sql) => ok(analyzeSql(parser, sql, TEXT_ANALYSERS)),
  };
}

function ok<T>(result: T): ToolSuccess<T> {
  return { ok: true, result };
}
