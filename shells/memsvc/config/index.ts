/**
 * Configuration of `memsvc`: the YAML file, `MEMSVC_*` environment overrides, validation and
 * defaults, and the listen-address helpers.
 *
 * @example
 * import { loadConfig } from "./shells/memsvc/config/index.js";
 * const result = loadConfig({ env: process.env, cwd: process.cwd() });
 */
export { CONFIG_KEYS, CONFIG_PATH_ENV, COHERE_KEY_ENV_FALLBACKS } from "./config-keys.js";
export type { ConfigKey, ConfigKeyKind } from "./config-keys.js";
export { RawConfigSchema } from "./config-schema.js";
export { applyEnvOverrides } from "./env-overrides.js";
export { formatHostPort, isLoopbackHost, parseListenAddress } from "../../common/listen-address.js";
export type { ListenAddress } from "../../common/listen-address.js";
export { loadConfig } from "./load-config.js";
export type { LoadConfigOptions, LoadConfigResult } from "./load-config.js";
export type { EmbedderConfig, LogLevel, MemsvcConfig, VectorStoreConfig } from "./memsvc-config.js";
export { packageVersion } from "../../common/package-version.js";
