import { AgentServicesError } from "../errors.js";

/**
 * `sql` itself when it is a string. Anything else is the `invalid_input` error a JavaScript
 * caller gets (TypeScript refuses it at compile time) instead of a `TypeError` from deep inside a
 * parser, or an analyser reporting a number as clean SQL.
 *
 * @example
 * expectSqlText("SELECT 1"); // "SELECT 1"
 * expectSqlText(undefined); // throws invalid_input "sql: expected a string, got undefined"
 */
export function expectSqlText(sql: unknown): string {
  if (typeof sql !== "string") {
    const got = sql === null ? "null" : typeof sql;
    throw new AgentServicesError("invalid_input", `sql: expected a string, got ${got}`);
  }
  return sql;
}
