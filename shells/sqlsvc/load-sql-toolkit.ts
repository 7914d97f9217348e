import { createDefaultSqlParser } from "../../adapters/sql/index.js";
import { createSqlToolkit } from "../../core/sql/sql-toolkit.js";
import type { SqlToolkit } from "../../core/sql/results.js";

/**
 * Builds the production toolkit: the default parser adapter, loaded (its WASM modules compiled)
 * before the first request, behind the core's SQL tools.
 *
 * @example
 * const toolkit = await loadSqlToolkit();
 * toolkit.validate("SELECT 1"); // { ok: true, result: { valid: true } }
 */
export async function loadSqlToolkit(): Promise<SqlToolkit> {
  return createSqlToolkit(await createDefaultSqlParser());
}
