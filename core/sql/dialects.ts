/** The SQL dialects the tools understand. `generic` accepts what any supported dialect accepts. */
export const SQL_DIALECTS = [
  "generic",
  "mysql",
  "postgresql",
  "sqlite",
  "sqlserver",
  "oracle",
  "snowflake",
] as const;

/** One of {@link SQL_DIALECTS}. */
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/**
 * The dialect named by `name`, matched case-insensitively, or undefined.
 *
 * @example
 * toSqlDialect("PostgreSQL"); // "postgresql"
 */
export function toSqlDialect(name: string): SqlDialect | undefined {
  const lower = name.trim().toLowerCase();
  return (SQL_DIALECTS as readonly string[]).includes(lower) ? (lower as SqlDialect) : undefined;
}
