import type { SqlParser, SqlSyntaxError } from "../ports/sql-parser.js";
import { SQL_DIALECTS, toSqlDialect, type SqlDialect } from "./dialects.js";
import type { ValidateResult } from "./results.js";
import { describeSyntaxError } from "./syntax-error.js";

/**
 * The first syntax error of `sql` in `dialect`, or undefined when it is valid.
 *
 * @example
 * findSyntaxError(parser, "SELECT FROM", "generic"); // { line: 1, column: 12, reason: "unexpected end of input" }
 */
export function findSyntaxError(
  parser: SqlParser,
  sql: string,
  dialect: SqlDialect,
): SqlSyntaxError | undefined {
  // polyglot's validate-only mode is cheaper than its parse: use it where the parser offers it.
  if (parser.check) return parser.check(sql, dialect);
  const result = parser.parse(sql, dialect);
  return result.ok ? undefined : result.error;
}

/**
 * `validate_sql`: `{ valid, error?, dialect? }`. `dialect` is echoed as given (and only when
 * given); it is matched case-insensitively. Errors read `invalid SQL: line L, column C: reason`.
 *
 * @example
 * validateSql(parser, "SELECT TOP 5 * FROM t", "sqlserver"); // { valid: true, dialect: "sqlserver" }
 * validateSql(parser, "SELECT * FROM t LIMIT 5", "sqlserver");
 * // { valid: false, error: "invalid SQL: line 1, column 17: LIMIT clause is not supported in SQL Server; …", dialect: "sqlserver" }
 */
export function validateSql(parser: SqlParser, sql: string, dialect?: string): ValidateResult {
  const echo: { dialect?: string } = dialect === undefined ? {} : { dialect };
  const resolved = dialect === undefined ? "generic" : toSqlDialect(dialect);
  if (resolved === undefined) {
    const known = SQL_DIALECTS.join(", ");
    return {
      valid: false,
      error: `unknown SQL dialect "${dialect}"; valid dialects: ${known}`,
      ...echo,
    };
  }
  const error = findSyntaxError(parser, sql, resolved);
  if (error === undefined) return { valid: true, ...echo };
  return { valid: false, error: `invalid SQL: ${describeSyntaxError(error)}`, ...echo };
}
