import type { SqlDialect } from "../sql/dialects.js";

/**
 * The neutral model of one parsed statement: what the SQL tools need, nothing vendor-specific.
 * Names are as written in the source (case kept, quotes removed, qualified names whole).
 */
export interface ParsedStatement {
  /**
   * The statement kind, e.g. `Select`, `SetOperation`, `Insert`, `Update`, `Delete`,
   * `CreateTable`, `CreateIndex`, `CreateView`, `CreateMaterializedView`, `Drop`, `Alter`,
   * `Truncate`, `Merge`, `Show`, `Describe`, `Replace`, `Pragma`, or another PascalCase name.
   */
  readonly kind: string;
  /** Tables referenced, first-seen order, CTE names excluded, each once. */
  readonly tables: readonly string[];
  /** Columns referenced, one entry per distinct (table, column) pair, first-seen order; no `*`. */
  readonly columns: readonly string[];
  /** Functions called, as written, each once, first-seen order. */
  readonly functions: readonly string[];
}

/** A syntax error with a 1-based line and column (in characters) and a readable reason. */
export interface SqlSyntaxError {
  readonly line: number;
  readonly column: number;
  /** e.g. `unexpected FROM, expected a column expression` (no position in it). */
  readonly reason: string;
}

/** The result of parsing: statements, or the first syntax error. */
export type SqlParseResult =
  | { readonly ok: true; readonly statements: readonly ParsedStatement[] }
  | { readonly ok: false; readonly error: SqlSyntaxError };

/**
 * Hints for {@link SqlParser.parse}; they never change its answer, only what it costs.
 *
 * @example
 * parser.parse(sql, "generic", { names: true }); // for extract_metadata, which reads every name
 */
export interface SqlParseOptions {
  /** The caller reads every statement's name lists (default false: maybe none, as parse_sql). */
  readonly names?: boolean;
}

/**
 * Parses SQL of one dialect into the neutral model. Implementations are synchronous after
 * {@link SqlParser.load} (the WASM parsers block for the call; the shells cap input size).
 *
 * @example
 * await parser.load();
 * const result = parser.parse("SELECT id FROM users", "postgresql");
 * if (result.ok) console.log(result.statements[0]?.kind); // "Select"
 */
export interface SqlParser {
  /** Loads whatever the parser needs (WASM modules). Idempotent. */
  load(): Promise<void>;
  /**
   * Parses; never throws for bad SQL (returns `ok: false`). Empty input is an error.
   * `options.names` says the caller reads every statement's name lists (tables, columns,
   * functions), so a parser may build them in the same pass rather than on first read.
   */
  parse(sql: string, dialect: SqlDialect, options?: SqlParseOptions): SqlParseResult;
  /**
   * Optional: the first syntax error of `sql`, or undefined when it is valid, without building
   * statements (cheaper where the vendor parser has a validate-only mode). Without it,
   * validation falls back to {@link SqlParser.parse}.
   */
  check?(sql: string, dialect: SqlDialect): SqlSyntaxError | undefined;
}
