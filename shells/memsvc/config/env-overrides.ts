import { suggestField } from "../../../core/memory/model/suggest-field.js";
import { CLIENT_URL_ENV, CONFIG_KEYS, CONFIG_PATH_ENV, type ConfigKey } from "./config-keys.js";

/** What {@link applyEnvOverrides} did: the merged object, where each value came from, warnings. */
export interface EnvOverrideResult {
  readonly merged: Record<string, unknown>;
  /** Dotted path → the environment variable that set it. */
  readonly sources: ReadonlyMap<string, string>;
  readonly warnings: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Names people reach for from other servers that no spelling distance leads from: the listen
 * address is one setting, host and port together.
 */
const WELL_KNOWN_MISTAKES: Readonly<Record<string, string>> = {
  MEMSVC_PORT: "MEMSVC_API_LISTEN_ADDR (host:port, e.g. 127.0.0.1:8080)",
  MEMSVC_HOST: "MEMSVC_API_LISTEN_ADDR (host:port, e.g. 127.0.0.1:8080)",
  MEMSVC_API_PORT: "MEMSVC_API_LISTEN_ADDR (host:port, e.g. 127.0.0.1:8080)",
  MEMSVC_API_HOST: "MEMSVC_API_LISTEN_ADDR (host:port, e.g. 127.0.0.1:8080)",
  MEMSVC_TOKEN: "MEMSVC_API_AUTH_TOKEN",
  MEMSVC_AUTH_TOKEN: "MEMSVC_API_AUTH_TOKEN",
};

function coerce(key: ConfigKey, value: string): unknown {
  if (key.kind === "string") return value;
  if (key.kind === "boolean") {
    const word = value.trim().toLowerCase();
    // Other text stays a string, so validation reports it with the variable's name.
    return word === "true" ? true : word === "false" ? false : value;
  }
  const trimmed = value.trim();
  // Leave non-numeric text as a string: validation then reports it with the variable's name.
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) ? Number(trimmed) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function setPath(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): boolean {
  let node = target;
  for (const part of path.slice(0, -1)) {
    const next = node[part] ?? {};
    if (!isPlainObject(next)) return false; // the file has a non-mapping here: validation says so
    node[part] = { ...next };
    node = node[part] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
  return true;
}

/**
 * Overlays `MEMSVC_<SECTION>_<KEY>` environment variables on the parsed YAML file. Empty values
 * count as unset. Numeric keys are converted when the text is a number; other text is kept so
 * validation can report it. `MEMSVC_*` names that match no setting produce a warning (a typo
 * must not pass silently); `MEMSVC_CONFIG` names the file and `MEMSVC_URL` the client commands'
 * service, neither is a setting.
 *
 * @example
 * applyEnvOverrides({ api: { listen_addr: ":8080" } }, { MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0" })
 *   .merged; // { api: { listen_addr: "127.0.0.1:0" } }
 */
export function applyEnvOverrides(file: Record<string, unknown>, env: Env): EnvOverrideResult {
  const merged: Record<string, unknown> = { ...file };
  const sources = new Map<string, string>();
  const warnings: string[] = [];
  for (const key of CONFIG_KEYS) {
    const value = env[key.env];
    if (value === undefined || value === "") continue;
    if (setPath(merged, key.path.split("."), coerce(key, value))) sources.set(key.path, key.env);
  }
  const known = new Set([CONFIG_PATH_ENV, CLIENT_URL_ENV, ...CONFIG_KEYS.map((k) => k.env)]);
  for (const name of Object.keys(env).sort()) {
    if (name.startsWith("MEMSVC_") && !known.has(name)) {
      const near = WELL_KNOWN_MISTAKES[name] ?? suggestField(name, [...known]);
      warnings.push(
        `environment variable ${name} matches no setting and is ignored${near === undefined ? "" : `; did you mean ${near}?`}`,
      );
    }
  }
  return { merged, sources, warnings };
}
