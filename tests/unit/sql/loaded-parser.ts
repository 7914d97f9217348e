/**
 * One loaded routing parser per test worker: loading compiles two WASM modules (~0.25 s), so
 * test files share it instead of loading their own.
 */
import { createDefaultSqlParser, type RoutingSqlParser } from "../../../adapters/sql/index.js";

let loading: Promise<RoutingSqlParser> | undefined;

/**
 * The shared parser, loaded.
 *
 * @example
 * const parser = await loadedParser();
 */
export function loadedParser(): Promise<RoutingSqlParser> {
  loading ??= createDefaultSqlParser();
  return loading;
}
