import type { SqlParser } from "../ports/sql-parser.js";
import type { SqlSchema, SqlSemantics } from "../ports/sql-semantics.js";
import { toSqlDialect } from "./dialects.js";
import type { SqlProblem, ValidateResult } from "./results.js";
import { describeSyntaxError } from "./syntax-error.js";
import { findSyntaxError, validateSql } from "./validate.js";

/**
 * `validate_sql` with a `schema`: the syntax first (as {@link validateSql}), then every table and
 * column name against the schema: unknown tables, unknown columns and unqualified columns that
 * more than one table of the query has are errors, each positioned at the name. The result adds
 * `errors` (every problem, in text order; the first is also `error`) and `schema_checked` (false
 * when the names could not be checked: a syntax error, or SQL the schema engine cannot read).
 *
 * @example
 * validateWithSchema(parser, semantics, "SELECT nme FROM users", undefined, { users: ["id", "name"] });
 * // { valid: false, error: "invalid SQL: line 1, column 8: unknown column 'nme' in table 'users'",
 * //   errors: [{ code: "unknown_column", message: "unknown column 'nme' in table 'users'", line: 1, column: 8 }],
 * //   schema_checked: true }
 */
export function validateWithSchema(
  parser: SqlParser,
  semantics: SqlSemantics,
  sql: string,
  dialect: string | undefined,
  schema: SqlSchema,
): ValidateResult {
  const echo: { dialect?: string } = dialect === undefined ? {} : { dialect };
  const resolved = dialect === undefined ? "generic" : toSqlDialect(dialect);
  if (resolved === undefined)
    return { ...validateSql(parser, sql, dialect), schema_checked: false };
  const syntax = findSyntaxError(parser, sql, resolved);
  if (syntax !== undefined) {
    const problem: SqlProblem = {
      code: "syntax_error",
      message: syntax.reason,
      line: syntax.line,
      column: syntax.column,
    };
    return {
      valid: false,
      error: `invalid SQL: ${describeSyntaxError(syntax)}`,
      ...echo,
      errors: [problem],
      schema_checked: false,
    };
  }
  const check = semantics.checkSchema(sql, schema, resolved);
  const errors = check.issues
    .map((issue): SqlProblem => ({
      code: issue.code,
      message: issue.reason,
      line: issue.line,
      column: issue.column,
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
  const first = errors[0];
  if (first === undefined) return { valid: true, ...echo, errors, schema_checked: check.checked };
  return {
    valid: false,
    error: `invalid SQL: ${describeSyntaxError({ line: first.line, column: first.column, reason: first.message })}`,
    ...echo,
    errors,
    schema_checked: check.checked,
  };
}
