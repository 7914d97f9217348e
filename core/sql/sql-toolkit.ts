import { AgentServicesError } from "../errors.js";
import type { SqlParser } from "../ports/sql-parser.js";
import type { SqlSemantics } from "../ports/sql-semantics.js";
import { analyzeSql, type SqlTextAnalysers } from "./analyze.js";
import { toSqlDialect, type SqlDialect } from "./dialects.js";
import { formatSql } from "./format.js";
import { fixSql, lintSql } from "./lint/index.js";
import { expectSqlText } from "./sql-text.js";
import { traceLineage } from "./lineage.js";
import { extractMetadata } from "./metadata.js";
import { parseSql } from "./parse.js";
import type { FixResult, LintOptions, SqlToolkit, ToolSuccess } from "./results.js";
import { scanSql } from "./security/index.js";
import { transpileSql } from "./transpile.js";
import { validateSql } from "./validate.js";
import { validateWithSchema } from "./validate-schema.js";

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
 * `{ ok: true, result }` or `{ ok: false, error }` (see {@link SqlToolkit}). The optional
 * parameters (a target dialect, a schema, lineage) need `semantics`; by default the parser's own
 * when it has them (the routing parser does). Without, asking for them is invalid input.
 *
 * @example
 * const tools = createSqlToolkit(await createDefaultSqlParser()); // adapters/sql
 * tools.validate("SELECT TOP 5 * FROM t", "sqlserver"); // { ok: true, result: { valid: true, dialect: "sqlserver" } }
 * tools.parse("SELECT 1; SELECT 2"); // { ok: true, result: { statement_count: 2, … } }
 * tools.format("INSERT INTO t VALUES ('O\\'Reilly')", {}, "mysql").ok; // true
 */
export function createSqlToolkit(
  parser: SqlParser,
  semantics: SqlSemantics | undefined = semanticsOf(parser),
): SqlToolkit {
  const needSemantics = (what: string): SqlSemantics => {
    if (semantics === undefined) {
      throw new AgentServicesError(
        "invalid_input",
        `${what}: this parser has no semantic analysis`,
      );
    }
    return semantics;
  };
  return {
    validate: (text, dialect, options) => {
      const sql = expectSqlText(text);
      return ok(
        options?.schema === undefined
          ? validateSql(parser, sql, dialect)
          : validateWithSchema(parser, needSemantics("schema"), sql, dialect, options.schema),
      );
    },
    format: (text, options, dialect, target) => {
      const sql = expectSqlText(text);
      const from = dialect === undefined ? "generic" : known(dialect);
      if (target === undefined) return formatSql(sql, options, undefined, from);
      return transpileSql(
        parser,
        needSemantics("target_dialect"),
        sql,
        options,
        from,
        known(target),
        target,
      );
    },
    parse: (sql) => parseSql(parser, expectSqlText(sql)),
    metadata: (text, options) => {
      const sql = expectSqlText(text);
      const outcome = extractMetadata(parser, sql);
      if (!outcome.ok || options?.lineage !== true) return outcome;
      const lineage = traceLineage(needSemantics("lineage"), sql, "generic");
      return { ok: true, result: { ...outcome.result, lineage } };
    },
    scan: (sql) => ok(scanSql(expectSqlText(sql))),
    lint: (sql, options) => ok(lintSql(expectSqlText(sql), options)),
    fix: (sql, options) => ok(fixOrLeave(expectSqlText(sql), options)),
    analyze: (sql) => ok(analyzeSql(parser, expectSqlText(sql), TEXT_ANALYSERS)),
  };
}

/**
 * The fixes that can be applied safely. The fixer proves each pass keeps the tokens and throws
 * naming the rules when one would not (a fix that is wrong for this text, e.g. trailing blanks
 * inside an unterminated string, `SELECT 'abc  `): those rules' fixes are then left out and the
 * others applied; the violations left are those of the whole rule set on the fixed text. Never a
 * server fault (issue 26: -32603); when no rule can be singled out, nothing is fixed.
 */
function fixOrLeave(sql: string, options: LintOptions = {}): FixResult {
  const skipped = new Set<string>();
  for (let attempt = 0; attempt < 4; attempt++) {
    const excluded = [...(options.exclude_rules ?? []), ...skipped];
    try {
      const fixed = fixSql(
        sql,
        skipped.size === 0 ? options : { ...options, exclude_rules: excluded },
      );
      if (skipped.size === 0) return fixed;
      const remaining = lintSql(fixed.fixed_sql, options);
      const before = lintSql(sql, options).violation_count;
      return {
        ...fixed,
        fixed_count: Math.max(0, before - remaining.violation_count),
        remaining,
      };
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("fixSql:")) throw error;
      const rules = /\(rules ([^)]*)\)/.exec(error.message)?.[1]?.split(", ") ?? [];
      const fresh = rules.filter((rule) => rule !== "" && !skipped.has(rule));
      if (fresh.length === 0) break;
      for (const rule of fresh) skipped.add(rule);
    }
  }
  return { fixed_sql: sql, changed: false, fixed_count: 0, remaining: lintSql(sql, options) };
}

/** The parser itself when it also implements {@link SqlSemantics}. */
function semanticsOf(parser: SqlParser): SqlSemantics | undefined {
  const maybe = parser as Partial<SqlSemantics>;
  return typeof maybe.transpile === "function" &&
    typeof maybe.checkSchema === "function" &&
    typeof maybe.lineage === "function"
    ? (parser as SqlParser & SqlSemantics)
    : undefined;
}

function ok<T>(result: T): ToolSuccess<T> {
  return { ok: true, result };
}
