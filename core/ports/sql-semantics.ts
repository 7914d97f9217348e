import type { SqlDialect } from "../sql/dialects.js";
import type { SqlSyntaxError } from "./sql-parser.js";

/**
 * Tables and their columns, for schema-aware validation: table name (optionally qualified,
 * `public.users`) → its column names, or column name → type.
 *
 * @example
 * const schema: SqlSchema = { users: ["id", "email"], "sales.orders": { id: "int", user_id: "int" } };
 */
export type SqlSchema = Readonly<
  Record<string, readonly string[] | Readonly<Record<string, string>>>
>;

/** One problem a schema check found, positioned at the name it is about. */
export interface SqlSchemaIssue {
  /** `unknown_table`, `unknown_column`, `ambiguous_column` or `unresolved_reference`. */
  readonly code: string;
  /** 1-based line and column (in code points) of the name. */
  readonly line: number;
  readonly column: number;
  /** e.g. `unknown column 'nme' in table 'users'` (no position in it). */
  readonly reason: string;
}

/** What a schema check says: `checked` is false when the engine could not read the SQL. */
export interface SqlSchemaCheck {
  readonly checked: boolean;
  readonly issues: readonly SqlSchemaIssue[];
}

/** The source columns of one output column of a query (`users.name`; none for a literal). */
export interface SqlColumnLineage {
  readonly column: string;
  readonly sources: readonly string[];
}

/** A transpilation: one text per statement, or the syntax error that stopped it. */
export type SqlTranspileResult =
  | { readonly ok: true; readonly statements: readonly string[] }
  | { readonly ok: false; readonly error: SqlSyntaxError };

/**
 * What the SQL tools' optional parameters need beyond parsing: transpiling between dialects
 * (`format_sql` with `target_dialect`), checking names against a schema (`validate_sql` with
 * `schema`) and tracing output columns to their sources (`extract_metadata` with `lineage`).
 * Synchronous after the implementation is loaded, like the `SqlParser` port.
 *
 * @example
 * semantics.transpile("SELECT TOP 5 * FROM t", "sqlserver", "postgresql");
 * // { ok: true, statements: ["SELECT * FROM t LIMIT 5"] }
 */
export interface SqlSemantics {
  /** `sql`, read as `from`, written for `to`; comments may be rewritten. */
  transpile(sql: string, from: SqlDialect, to: SqlDialect): SqlTranspileResult;
  /** Unknown tables and columns and ambiguous references of syntactically valid `sql`. */
  checkSchema(sql: string, schema: SqlSchema, dialect: SqlDialect): SqlSchemaCheck;
  /**
   * The lineage of the output columns of one statement (at most `maxColumns` of them), or
   * undefined when the statement has no output columns (DDL, a plain INSERT).
   */
  lineage(
    statement: string,
    dialect: SqlDialect,
    maxColumns: number,
  ): readonly SqlColumnLineage[] | undefined;
}
