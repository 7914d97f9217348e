import { scanSql } from "../../../../core/sql/security/index.js";

/**
 * `SEVERITY PATTERN` of every HIGH or CRITICAL finding of `scanSql(sql)`.
 *
 * @example
 * high("SELECT * FROM t WHERE id = 1 OR 1=1"); // ["CRITICAL TAUTOLOGY"]
 */
export function high(sql: string): string[] {
  return scanSql(sql)
    .findings.filter((f) => f.severity === "HIGH" || f.severity === "CRITICAL")
    .map((f) => `${f.severity} ${f.pattern}`);
}
