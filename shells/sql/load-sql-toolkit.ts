import { createDefaultSqlParser } from "../../adapters/sql/index.js";
import { createSqlToolkit } from "../../core/sql/sql-toolkit.js";
import type { SqlToolkit } from "../../core/sql/results.js";

/**
 * Builds the production toolkit: the default parser adapter, loaded (its WASM modules compiled)
 * before the first request, behind the core's SQL tools.
 *
 * @example
 * const toolkit = await loadSqlToolkit();
 * toolkit.validate("SELECT 1"); // { valid: true }
 */
export async function loadSqlToolkit(): Promise<SqlToolkit> {
  const parser = createDefaultSqlParser();
  await parser.load();
  return createSqlToolkit(parser);
}
