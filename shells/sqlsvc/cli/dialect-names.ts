import { SQL_DIALECTS, toSqlDialect, type SqlDialect } from "../../../core/sql/dialects.js";

/**
 * Other names users give the dialects (SQLFluff's, sqlglot's, the databases' own), mapped to
 * ours. Kept in the CLI until the core's `toSqlDialect` knows them; the lookup below tries the
 * core first, so it keeps working when it does.
 */
export const DIALECT_ALIASES: Readonly<Record<string, SqlDialect>> = {
  ansi: "generic",
  postgres: "postgresql",
  pg: "postgresql",
  pgsql: "postgresql",
  mariadb: "mysql",
  sqlite3: "sqlite",
  tsql: "sqlserver",
  "t-sql": "sqlserver",
  mssql: "sqlserver",
  "sql-server": "sqlserver",
  plsql: "oracle",
};

/**
 * The dialect a command-line or configuration name means, in any letter case, aliases included;
 * undefined for a name nothing has.
 *
 * @example
 * dialectNamed("Postgres"); // "postgresql"
 * dialectNamed("tsql"); // "sqlserver"
 */
export function dialectNamed(name: string): SqlDialect | undefined {
  return toSqlDialect(name) ?? DIALECT_ALIASES[name.trim().toLowerCase()];
}

/**
 * Every dialect with the aliases that name it, for `sqlsvc dialects`.
 *
 * @example
 * dialectTable().find((d) => d.name === "sqlserver")?.aliases; // ["tsql", "t-sql", "mssql", "sql-server"]
 */
export function dialectTable(): { name: SqlDialect; aliases: string[] }[] {
  return SQL_DIALECTS.map((name) => ({
    name,
    aliases: Object.entries(DIALECT_ALIASES)
      .filter(([, d]) => d === name)
      .map(([alias]) => alias),
  }));
}
