import { findDialectViolation } from "../../core/sql/dialect-features.js";
import type { SqlDialect } from "../../core/sql/dialects.js";
import { findParseLimit } from "../../core/sql/parse-limits.js";
import type { Token } from "../../core/sql/token.js";
import { tokenize } from "../../core/sql/tokenizer.js";
import { surelyWithinParseLimits } from "../../core/sql/within-parse-limits.js";
import type {
  SqlParseOptions,
  SqlParseResult,
  SqlParser,
  SqlSyntaxError,
} from "../../core/ports/sql-parser.js";
import type {
  SqlColumnLineage,
  SqlSchema,
  SqlSchemaCheck,
  SqlSemantics,
  SqlTranspileResult,
} from "../../core/ports/sql-semantics.js";
import { LibpgQuerySqlParser } from "./libpg-query-sql-parser.js";
import { PolyglotSqlParser } from "./polyglot-sql-parser.js";

/**
 * Dialects tried after PostgreSQL and polyglot's generic grammar when validating `generic` SQL,
 * so that `generic` accepts what any supported dialect accepts.
 */
const GENERIC_FALLBACKS: readonly SqlDialect[] = [
  "sqlserver",
  "mysql",
  "oracle",
  "snowflake",
  "sqlite",
];

/** Parsers the router delegates to (defaults: fresh instances). */
export interface RoutingSqlParserOptions {
  readonly postgres?: LibpgQuerySqlParser;
  readonly polyglot?: PolyglotSqlParser;
}

/**
 * The {@link SqlParser} of the SQL tools: a real grammar per dialect, and (as {@link SqlSemantics})
 * polyglot's transpilation, schema checks and lineage.
 * - `postgresql`: PostgreSQL's own parser (exact).
 * - `generic`: PostgreSQL first; then polyglot's generic grammar; then each other dialect, so
 *   `generic` accepts what any supported dialect accepts. Most SQL never leaves the first step.
 * - `mysql`, `sqlite`, `sqlserver`, `oracle`, `snowflake`: polyglot in that dialect, made strict
 *   by the token-based dialect-feature checks (`findDialectViolation`).
 *
 * Before any grammar runs, text past the parsers' limits (nesting, operator chains, set
 * operations, statement count, an unterminated block comment) is refused with a syntax error
 * (`findParseLimit` over the tokens, skipped when one cheaper pass over the characters proves the
 * text within them: `surelyWithinParseLimits`), so every call does work linear in the text and
 * none overflows a stack. Each grammar then runs at most once per dialect (at most 7 WASM calls),
 * and the text is tokenised at most once, only when a check needs the tokens.
 *
 * @example
 * const parser = new RoutingSqlParser();
 * await parser.load();
 * parser.parse("SELECT TOP 5 * FROM t", "sqlserver").ok; // true
 * parser.parse("SELECT TOP 5 * FROM t", "postgresql").ok; // false
 */
export class RoutingSqlParser implements SqlParser, SqlSemantics {
  private readonly postgres: LibpgQuerySqlParser;
  private readonly polyglot: PolyglotSqlParser;

  constructor(options: RoutingSqlParserOptions = {}) {
    this.postgres = options.postgres ?? new LibpgQuerySqlParser();
    this.polyglot = options.polyglot ?? new PolyglotSqlParser();
  }

  /** Loads both WASM parsers (polyglot is imported here, not when this module is imported). */
  async load(): Promise<void> {
    await Promise.all([this.postgres.load(), this.polyglot.load()]);
  }

  parse(sql: string, dialect: SqlDialect, options?: SqlParseOptions): SqlParseResult {
    const tokens = lazyTokens(sql);
    const limit = parseLimit(sql, tokens.standard);
    if (limit !== undefined) return { ok: false, error: limit };
    const result = this.parseIn(sql, dialect, tokens, options);
    // Comments and semicolons alone are a script of no statements in every dialect (issue 25:
    // some grammars refuse `/* b */ ;`); looked at only when a grammar refused the text.
    return result.ok || !noStatement(tokens.standard()) ? result : NO_STATEMENTS;
  }

  private parseIn(
    sql: string,
    dialect: SqlDialect,
    tokens: LazyTokens,
    options: SqlParseOptions | undefined,
  ): SqlParseResult {
    if (dialect === "postgresql") return this.postgres.parse(sql, dialect, options);
    if (dialect === "generic") return this.parseGeneric(sql, tokens, false, options);
    const violation = findDialectViolation(tokens.of(dialect), dialect);
    if (violation !== undefined) return { ok: false, error: violation };
    return this.polyglot.parse(sql, dialect);
  }

  /**
   * Syntax check without building the neutral model (PostgreSQL's tree is not read, polyglot's
   * cheaper `validate` runs): undefined when `sql` is valid in `dialect`. Same verdicts as
   * {@link parse}.
   */
  check(sql: string, dialect: SqlDialect): SqlSyntaxError | undefined {
    const tokens = lazyTokens(sql);
    const limit = parseLimit(sql, tokens.standard);
    if (limit !== undefined) return limit;
    const error = this.checkIn(sql, dialect, tokens);
    return error === undefined || noStatement(tokens.standard()) ? undefined : error;
  }

  private checkIn(
    sql: string,
    dialect: SqlDialect,
    tokens: LazyTokens,
  ): SqlSyntaxError | undefined {
    if (dialect === "postgresql") return this.postgres.check(sql, dialect);
    if (dialect === "generic") {
      const result = this.parseGeneric(sql, tokens, true);
      return result.ok ? undefined : result.error;
    }
    return findDialectViolation(tokens.of(dialect), dialect) ?? this.polyglot.check(sql, dialect);
  }

  /** Transpiles with polyglot (see `PolyglotSemantics`). */
  transpile(sql: string, from: SqlDialect, to: SqlDialect): SqlTranspileResult {
    return this.polyglot.semantics.transpile(sql, from, to);
  }

  /** Checks names against `schema` with polyglot (see `PolyglotSemantics`). */
  checkSchema(sql: string, schema: SqlSchema, dialect: SqlDialect): SqlSchemaCheck {
    return this.polyglot.semantics.checkSchema(sql, schema, dialect);
  }

  /** Column lineage of one statement with polyglot (see `PolyglotSemantics`). */
  lineage(
    statement: string,
    dialect: SqlDialect,
    maxColumns: number,
  ): readonly SqlColumnLineage[] | undefined {
    return this.polyglot.semantics.lineage(statement, dialect, maxColumns);
  }

  private parseGeneric(
    sql: string,
    tokens: LazyTokens,
    checkOnly: boolean,
    options?: SqlParseOptions,
  ): SqlParseResult {
    const first = this.postgresFirst(sql, checkOnly, options);
    // PostgreSQL reads T-SQL's `SELECT TOP (@n) id` as a call of top() aliased `id`: with SELECT
    // TOP in the text the other grammars read it first, PostgreSQL's reading is the fallback.
    if (first.ok && !SELECT_TOP.test(sql)) return first;
    let best = first.ok ? START_OF_INPUT : first.error;
    const generic = genericViolation(sql, tokens);
    if (generic !== undefined) return first.ok ? first : { ok: false, error: later(best, generic) };
    const second = this.polyglot.parse(sql, "generic");
    if (second.ok) return second;
    best = later(best, second.error);
    for (const dialect of GENERIC_FALLBACKS) {
      if (findDialectViolation(tokens.of(dialect), dialect) !== undefined) continue;
      if (checkOnly) {
        if (this.polyglot.check(sql, dialect) === undefined) return CHECKED;
      } else {
        const result = this.polyglot.parse(sql, dialect);
        if (result.ok) return result;
      }
    }
    return first.ok ? first : { ok: false, error: best };
  }

  /** PostgreSQL's verdict; for a check, without reading its tree (the statements are empty). */
  private postgresFirst(
    sql: string,
    checkOnly: boolean,
    options: SqlParseOptions | undefined,
  ): SqlParseResult {
    if (!checkOnly) return this.postgres.parse(sql, "postgresql", options);
    const error = this.postgres.check(sql, "postgresql");
    return error === undefined ? CHECKED : { ok: false, error };
  }
}

/** A successful check: valid, with no statements built. */
const CHECKED: SqlParseResult = { ok: true, statements: [] };

/** Text with no statement in it (comments, semicolons). */
const NO_STATEMENTS: SqlParseResult = { ok: true, statements: [] };

/** True when `tokens` hold something but no statement: only comments and semicolons. */
function noStatement(tokens: readonly Token[]): boolean {
  let something = false;
  for (const t of tokens) {
    if (t.kind === "whitespace" || t.kind === "newline") continue;
    if (t.kind === "line_comment" || t.kind === "block_comment") {
      if (t.unterminated === true) return false;
      something = true;
      continue;
    }
    if (t.kind === "punctuation" && t.text === ";") {
      something = true;
      continue;
    }
    return false;
  }
  return something;
}

/**
 * Dialects whose strings take backslash escapes (`'it\'s'` is one string): their dialect checks
 * read the text that way, as their grammars do (issue 25: a `\'` followed by `(or` was read as
 * the end of the string, and `(or` as a missing operand).
 */
const BACKSLASH_DIALECTS: ReadonlySet<SqlDialect> = new Set(["mysql", "snowflake"]);

/** The tokens of `sql` in the standard reading and with backslash escapes, each made once. */
interface LazyTokens {
  /** Standard SQL: only `''` escapes a quote. */
  readonly standard: () => readonly Token[];
  /** As `dialect` reads strings. */
  readonly of: (dialect: SqlDialect) => readonly Token[];
}

/** The tokens of `sql`, made on the first call only (most calls never need them). */
function lazyTokens(sql: string): LazyTokens {
  let standard: readonly Token[] | undefined;
  let escaped: readonly Token[] | undefined;
  const plain = () => (standard ??= tokenize(sql));
  return {
    standard: plain,
    of: (dialect) =>
      BACKSLASH_DIALECTS.has(dialect) && sql.includes("\\")
        ? (escaped ??= tokenize(sql, { backslashEscapes: true }))
        : plain(),
  };
}

/**
 * The generic dialect's structural checks: generic accepts what any dialect accepts, so text
 * with a backslash passes when either reading of its strings passes.
 */
function genericViolation(sql: string, tokens: LazyTokens): SqlSyntaxError | undefined {
  const standard = findDialectViolation(tokens.standard(), "generic");
  if (standard === undefined || !sql.includes("\\")) return standard;
  return findDialectViolation(tokens.of("mysql"), "generic") === undefined ? undefined : standard;
}

/** The parse limit `sql` goes past, if any; tokenises only when the cheap pass cannot tell. */
function parseLimit(sql: string, tokens: () => readonly Token[]): SqlSyntaxError | undefined {
  return surelyWithinParseLimits(sql) ? undefined : findParseLimit(tokens());
}

/** A position before any error (the starting point when PostgreSQL reported none). */
const START_OF_INPUT: SqlSyntaxError = { line: 1, column: 1, reason: "" };

/** `SELECT TOP` / `SELECT DISTINCT TOP`: T-SQL's row limit, which PostgreSQL misreads as a call. */
const SELECT_TOP = /\bselect\s+(?:distinct\s+|all\s+)?top\b/i;

/** The error of the grammar that got further (ties go to the first, PostgreSQL's). */
function later(a: SqlSyntaxError, b: SqlSyntaxError): SqlSyntaxError {
  return b.line > a.line || (b.line === a.line && b.column > a.column) ? b : a;
}
