import pg from "pg";

/** The server settings that make PostgreSQL count statements (pass to `startPostgresServer`). */
export const STATEMENT_COUNTING_SETTINGS: Readonly<Record<string, string>> = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.track_utility": "on",
  "pg_stat_statements.track_planning": "on",
};

/**
 * What PostgreSQL ran, from `pg_stat_statements` (the server must preload it: see
 * {@link STATEMENT_COUNTING_SETTINGS}): `reset()` before a phase, `print(label, units)` after it
 * lists each statement's calls and execution time per unit of work (per request, per memory), so
 * round trips per write can be counted instead of guessed.
 *
 * @example
 * const statements = await pgStatements(url);
 * await statements.reset();
 * // … 2,000 remembers …
 * await statements.print("remember", 2000);
 * await statements.close();
 */
export async function pgStatements(url: string): Promise<{
  reset(): Promise<void>;
  print(label: string, units: number): Promise<void>;
  close(): Promise<void>;
}> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return {
    async reset() {
      await client.query("SELECT pg_stat_statements_reset()");
    },
    async print(label, units) {
      const { rows } = await client.query<{ calls: string; ms: number; rows: string; q: string }>(
        `SELECT calls::text, total_exec_time + total_plan_time AS ms, rows::text, query AS q
         FROM pg_stat_statements
         WHERE query NOT LIKE '%pg_stat_statements%'
         ORDER BY total_exec_time DESC LIMIT 25`,
      );
      const calls = rows.reduce((sum, r) => sum + Number(r.calls), 0);
      const ms = rows.reduce((sum, r) => sum + r.ms, 0);
      console.log(
        `\nPostgreSQL statements during "${label}" (per unit of ${units}): ${(calls / units).toFixed(2)} calls, ${((ms / units) * 1000).toFixed(0)} µs planning and executing`,
      );
      for (const r of rows) {
        const text = r.q.replace(/\s+/g, " ").slice(0, 110);
        console.log(
          `  ${(Number(r.calls) / units).toFixed(3).padStart(8)} calls ${((r.ms / units) * 1000).toFixed(0).padStart(6)} µs  ${text}`,
        );
      }
    },
    async close() {
      await client.end();
    },
  };
}
