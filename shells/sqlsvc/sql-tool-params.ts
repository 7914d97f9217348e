import * as v from "valibot";
import { SQL_DIALECTS, toSqlDialect } from "../../core/sql/dialects.js";

/**
 * Longest `sql` accepted, in UTF-8 bytes (256 KiB): the WASM parsers block while they work.
 *
 * @example
 * Buffer.byteLength(sql) <= MAX_SQL_BYTES; // what the sql parameter checks
 */
export const MAX_SQL_BYTES = 256 * 1024;

const SQL_REQUIRED = "parameter 'sql' is required and must be a non-empty string";

/**
 * The `sql` parameter: a string with something other than whitespace, at most
 * {@link MAX_SQL_BYTES} bytes of UTF-8. `purpose` completes the description for the model.
 *
 * @example
 * v.object({ sql: sqlParam("The SQL to validate.") });
 */
export function sqlParam(purpose: string) {
  return v.pipe(
    v.string(SQL_REQUIRED),
    v.check((sql) => /\S/.test(sql), SQL_REQUIRED),
    v.check(
      fitsSqlLimit,
      (issue) =>
        `parameter 'sql' is too long: ${Buffer.byteLength(String(issue.input))} bytes, at most ${MAX_SQL_BYTES} (256 KiB)`,
    ),
    v.description(purpose),
  );
}

function fitsSqlLimit(sql: string): boolean {
  // A UTF-16 unit is at most 3 UTF-8 bytes (a pair 4 for 2), so short strings need no count.
  return sql.length * 3 <= MAX_SQL_BYTES || Buffer.byteLength(sql) <= MAX_SQL_BYTES;
}

const DIALECTS = SQL_DIALECTS.join(", ");

/**
 * The optional `dialect` parameter: one of the seven dialects in any letter case (echoed as given
 * by `validate_sql`). Advertised as an enum of the lower-case names.
 *
 * @example
 * v.object({ sql: sqlParam("…"), dialect: dialectParam });
 */
export const dialectParam = optionalDialect(
  `SQL dialect whose grammar the statement must follow: ${DIALECTS} (case-insensitive). ` +
    "Omit it (or use generic) to accept syntax valid in any of them.",
);

/**
 * The optional `dialect` parameter of `format_sql` and `lint_sql`: the same values as
 * {@link dialectParam}, deciding only how the text is read (`mysql`: a backslash escapes the next
 * character in a string, so `'O\'Reilly'` is one string).
 *
 * @example
 * v.object({ sql: sqlParam("…"), dialect: textDialectParam });
 */
export const textDialectParam = optionalDialect(
  `SQL dialect of the text: ${DIALECTS} (case-insensitive). It decides how strings are read: ` +
    "with mysql a backslash escapes the next character ('O\\'Reilly'). Default generic " +
    "(standard SQL: only '' escapes a quote).",
);

/**
 * An optional dialect name in any letter case, advertised as an enum of the lower-case names;
 * `message` words the refusal of anything else (default: as a tool parameter).
 *
 * @example
 * v.object({ dialect: optionalDialect("SQL dialect of the text") });
 */
export function optionalDialect(
  description: string,
  message: (input: unknown) => string = dialectMessage,
) {
  return v.optional(
    v.pipe(
      v.string((issue) => message(issue.input)),
      v.check(
        (name) => toSqlDialect(name) !== undefined,
        (issue) => message(issue.input),
      ),
      v.metadata({ enum: [...SQL_DIALECTS] }),
      v.description(description),
    ),
  );
}

function dialectMessage(input: unknown): string {
  return `parameter 'dialect' must be one of ${DIALECTS} (any letter case), got ${shown(input)}`;
}

/**
 * The optional `indent_size` parameter of `format_sql`: an integer 0..16, default 2.
 *
 * @example
 * v.object({ sql: sqlParam("…"), indent_size: indentSizeParam });
 */
export const indentSizeParam = v.optional(
  v.pipe(
    v.number((issue) => indentMessage(issue.input)),
    v.integer((issue) => indentMessage(issue.input)),
    v.minValue(0, (issue) => indentMessage(issue.input)),
    v.maxValue(16, (issue) => indentMessage(issue.input)),
    v.description("Spaces per indentation level, 0 to 16 (default 2)."),
  ),
  2,
);

function indentMessage(input: unknown): string {
  return `parameter 'indent_size' must be an integer from 0 to 16, got ${shown(input)}`;
}

/**
 * An optional boolean parameter with default false.
 *
 * @example
 * v.object({ add_semicolon: flagParam("add_semicolon", "End every statement with ';'.") });
 */
export function flagParam(name: string, description: string) {
  return v.optional(
    v.pipe(
      v.boolean((issue) => `parameter '${name}' must be true or false, got ${shown(issue.input)}`),
      v.description(description),
    ),
    false,
  );
}

/** A short rendering of a rejected value for error messages. */
function shown(input: unknown): string {
  if (input === undefined) return "nothing";
  const json = JSON.stringify(input);
  return json.length > 40 ? `${json.slice(0, 37)}...` : json;
}

/**
 * The optional `target_dialect` parameter of `format_sql`: a dialect to transpile to (from
 * `dialect`), in any letter case, echoed as given.
 *
 * @example
 * v.object({ sql: sqlParam("…"), target_dialect: targetDialectParam });
 */
export const targetDialectParam = optionalDialect(
  `Transpile to this dialect before formatting: ${DIALECTS} (case-insensitive). The SQL is read ` +
    "as `dialect` (default generic) and rewritten for the target (functions, row limits, " +
    "quoting: SELECT TOP 5 becomes LIMIT 5 for postgresql); the result echoes target_dialect. " +
    "Comments may be rewritten. Default: no transpilation.",
  (input) =>
    `parameter 'target_dialect' must be one of ${DIALECTS} (any letter case), got ${shown(input)}`,
);

const SCHEMA_SHAPE =
  "expected an object of table name -> column names (a list) or column name -> type (an object)";
const name = (what: string) =>
  v.pipe(
    v.string(),
    v.check((text) => /\S/.test(text), `a ${what} name must not be empty`),
  );

/**
 * The optional `schema` parameter of `validate_sql`: tables and their columns, each table as a
 * list of column names or an object of column name to type; keys may be qualified
 * (`public.users`).
 *
 * @example
 * v.parse(v.object({ schema: schemaParam }), { schema: { users: ["id", "email"] } });
 */
export const schemaParam = v.optional(
  v.pipe(
    v.record(
      name("table"),
      v.union(
        [v.array(name("column")), v.record(name("column"), v.string())],
        "expected a list of column names or an object of column name -> type",
      ),
      (issue) => `parameter 'schema' ${SCHEMA_SHAPE}, got ${shown(issue.input)}`,
    ),
    v.description(
      'Tables and their columns, to check names against: {"users": ["id", "email"], ' +
        '"public.orders": {"id": "int", "user_id": "int"}}. Unknown tables, unknown ' +
        "columns and unqualified columns more than one table has are then errors with line and " +
        "column; the result adds errors (every problem) and schema_checked. Default: syntax only.",
    ),
  ),
);
