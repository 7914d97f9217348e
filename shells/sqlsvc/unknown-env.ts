import { suggestField } from "../../core/memory/model/suggest-field.js";

/** Every environment variable `sqlsvc-mcp` reads. */
export const SQLSVC_ENV_NAMES: readonly string[] = [
  "SQLSVC_MCP_HOST",
  "SQLSVC_MCP_PORT",
  "SQLSVC_MCP_AUTH_TOKEN",
  "SQLSVC_MCP_WORKERS",
  "SQLSVC_MCP_ALLOWED_HOSTS",
  "SQLSVC_MCP_ALLOWED_ORIGINS",
  "SQLSVC_MCP_CALL_BUDGET_MS",
  "SQLSVC_MCP_ALLOW_PORT_0",
];

/**
 * A warning for each `SQLSVC_*` variable that `sqlsvc-mcp` does not read (a typo would otherwise
 * leave a setting at its default without a word), with the name it most likely meant: as memsvc
 * does for `MEMSVC_*`.
 *
 * @example
 * unknownSqlsvcEnv({ SQLSVC_MCP_PROT: "9000" });
 * // ["environment variable SQLSVC_MCP_PROT matches no setting and is ignored; did you mean SQLSVC_MCP_PORT?"]
 */
export function unknownSqlsvcEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith("SQLSVC_") && !SQLSVC_ENV_NAMES.includes(name))
    .sort()
    .map((name) => {
      const near = suggestField(name, SQLSVC_ENV_NAMES);
      return `environment variable ${name} matches no setting and is ignored${near === undefined ? "" : `; did you mean ${near}?`}`;
    });
}
