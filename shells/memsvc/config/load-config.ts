import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import { parseDocument } from "yaml";
import {
  COHERE_KEY_ENV_FALLBACKS,
  CONFIG_KEYS,
  CONFIG_PATH_ENV,
  OPENAI_KEY_ENV_FALLBACK,
} from "./config-keys.js";
import {
  DEFAULT_MEMORY_SERVICE_OPTIONS,
  recallMinScoreOf,
  neighbourLiftOf,
  recallContextNeighboursOf,
  recallKneeGapOf,
  recallRelativeFloorOf,
} from "../../../core/memory/index.js";
import { suggestField } from "../../../core/memory/model/suggest-field.js";
import { RawConfigSchema, type RawConfig } from "./config-schema.js";
import { applyEnvOverrides } from "./env-overrides.js";
import { parseListenAddress } from "../../common/listen-address.js";
import type {
  EmbedderConfig,
  HttpEmbedderConfig,
  MemsvcConfig,
  VectorStoreConfig,
} from "./memsvc-config.js";

/** Inputs of {@link loadConfig}: everything it reads from the process is passed in. */
export interface LoadConfigOptions {
  /** The `--config` argument, if given. */
  readonly configPath?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved against (the default file is looked up here). */
  readonly cwd: string;
}

/** Either the config and non-fatal warnings, or every problem found, one message each. */
export type LoadConfigResult =
  | { readonly ok: true; readonly config: MemsvcConfig; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

function readFile(options: LoadConfigOptions, problems: string[]) {
  const named = options.configPath ?? options.env[CONFIG_PATH_ENV];
  const path = resolve(options.cwd, named || "memsvc.yaml");
  if (!named && !existsSync(path)) return { source: undefined, data: {} };
  const origin =
    options.configPath !== undefined ? "--config" : named ? CONFIG_PATH_ENV : "default";
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : "cannot be read";
    problems.push(`config file ${path} (${origin}): ${reason}`);
    return { source: path, data: {} };
  }
  const doc = parseDocument(text);
  for (const error of doc.errors) {
    const at = error.linePos?.[0];
    const where = at ? ` line ${at.line} column ${at.col}` : "";
    problems.push(
      `config file ${path}${where}: invalid YAML: ${error.message.split(/ at line \d+|\n/)[0]}`,
    );
  }
  if (doc.errors.length > 0) return { source: path, data: {} };
  const data: unknown = doc.toJS() ?? {};
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    problems.push(`config file ${path}: expected a mapping of sections at the top level`);
    return { source: path, data: {} };
  }
  return { source: path, data: data as Record<string, unknown> };
}

function findCohereKey(merged: Record<string, unknown>, env: LoadConfigOptions["env"]) {
  const embedder = merged["embedder"] as { cohere?: { api_key?: unknown } } | undefined;
  const fromConfig = embedder?.cohere?.api_key;
  return [fromConfig, ...COHERE_KEY_ENV_FALLBACKS.map((n) => env[n])].find(
    (k): k is string => typeof k === "string" && k.trim() !== "",
  );
}

function wantsCohere(merged: Record<string, unknown>): boolean {
  return (merged["embedder"] as { provider?: unknown } | undefined)?.provider === "cohere";
}

function resolveConfig(
  raw: RawConfig,
  source: string | undefined,
  apiKey: string | undefined,
  cwd: string,
  openAiKey: string | undefined,
): MemsvcConfig {
  const listen = parseListenAddress(raw.api.listen_addr ?? ":8080");
  if (!listen.ok) throw new Error(`listen address passed validation but does not parse`);
  const chroma = raw.vector_store.chroma;
  const collection = chroma.collection ?? "memories";
  const postgres = raw.vector_store.postgres;
  const vectorStore: VectorStoreConfig =
    raw.vector_store.provider === "postgres"
      ? {
          kind: "postgres",
          url: postgres.url ?? "",
          poolSize: postgres.pool_size ?? 10,
          snapshotDir:
            postgres.snapshot_dir === "" || postgres.snapshot_dir === "off"
              ? undefined
              : resolve(cwd, postgres.snapshot_dir ?? "./data/replica"),
        }
      : chroma.url
        ? { kind: "chroma-url", url: chroma.url, collection }
        : {
            kind: "chroma-embedded",
            path: resolve(cwd, chroma.path ?? "./data/chroma"),
            collection,
          };
  const c = raw.embedder.cohere;
  const embedder: EmbedderConfig =
    raw.embedder.provider === "cohere"
      ? {
          provider: "cohere",
          apiKey: apiKey ?? "",
          baseUrl: c.base_url,
          model: c.model ?? "embed-v4.0",
          dimensions: c.dimensions ?? 1024,
          timeoutMs: Math.round((c.timeout_seconds ?? 10) * 1000),
          maxRetries: c.max_retries ?? 2,
        }
      : raw.embedder.provider === "ollama" || raw.embedder.provider === "openai"
        ? httpEmbedder(raw, raw.embedder.provider, openAiKey)
        : localEmbedder(
            raw.embedder.local.model,
            raw.embedder.local.dimensions,
            raw.embedder.local.threads,
          );
  const token = raw.api.auth_token;
  return {
    source,
    api: {
      listen: listen.value,
      listenText: raw.api.listen_addr ?? ":8080",
      authToken: token !== undefined && token !== "" ? token : undefined,
      allowedHosts: commaList(raw.api.allowed_hosts),
      allowedOrigins: commaList(raw.api.allowed_origins),
      rateLimit: rateLimitOf(raw.api.rate_limit),
    },
    vectorStore,
    embedder,
    memory: {
      // The core owns these defaults; the config only overrides what the file or env sets.
      ttlHours: raw.memory.ttl_hours ?? DEFAULT_MEMORY_SERVICE_OPTIONS.ttlHours,
      sessionIdleHours:
        raw.memory.session_idle_hours ?? DEFAULT_MEMORY_SERVICE_OPTIONS.sessionIdleHours,
      recallCandidates: raw.recall.candidates ?? DEFAULT_MEMORY_SERVICE_OPTIONS.recallCandidates,
      halfLifeHours: raw.recall.half_life_hours ?? DEFAULT_MEMORY_SERVICE_OPTIONS.halfLifeHours,
      weights: { ...DEFAULT_MEMORY_SERVICE_OPTIONS.weights, ...definedOnly(raw.recall.weights) },
      recallMinScore: raw.recall.min_score ?? recallMinScoreOf(DEFAULT_MEMORY_SERVICE_OPTIONS),
      recallRelativeFloor:
        raw.recall.relative_floor ?? recallRelativeFloorOf(DEFAULT_MEMORY_SERVICE_OPTIONS),
      recallKneeGap: raw.recall.knee_gap ?? recallKneeGapOf(DEFAULT_MEMORY_SERVICE_OPTIONS),
      recallContextNeighbours:
        raw.recall.context_neighbours ?? recallContextNeighboursOf(DEFAULT_MEMORY_SERVICE_OPTIONS),
      neighbourLift:
        raw.retrieval.neighbour_lift ?? neighbourLiftOf(DEFAULT_MEMORY_SERVICE_OPTIONS),
    },
    sweepIntervalMs: (raw.memory.sweep_interval_seconds ?? 300) * 1000,
    ui: { enabled: raw.ui.enabled ?? true, path: raw.ui.path ?? "/ui" },
    tenants: { memoryQuota: raw.tenants.memory_quota },
    mcp: { tenant: raw.mcp.tenant ?? "default" },
    log: {
      level: raw.log.level ?? "info",
      format:
        raw.log.format === undefined || raw.log.format === "auto" ? undefined : raw.log.format,
    },
  };
}

function definedOnly<T extends object>(o: T): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as never;
}

/**
 * Loads the `memsvc` configuration: the YAML file (from `--config`, else `MEMSVC_CONFIG`, else
 * `./memsvc.yaml` when it exists), then `MEMSVC_*` environment overrides, then validation and
 * defaults. Never throws for bad configuration: it returns every problem, one message each, so
 * the CLI can print them all and exit before binding.
 *
 * @example
 * const result = loadConfig({ configPath: "memsvc.yaml", env: process.env, cwd: process.cwd() });
 * if (!result.ok) { console.error(result.problems.join("\n")); process.exit(1); }
 */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const problems: string[] = [];
  const file = readFile(options, problems);
  const { merged, sources, warnings } = applyEnvOverrides(file.data, options.env);
  const parsed = v.safeParse(RawConfigSchema, merged, { abortEarly: false });
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const path = v.getDotPath(issue) ?? "(top level)";
      const from = sources.get(path);
      const where = from ? `${path} (from ${from})` : path;
      const got = /, got |^unknown key/.test(issue.message) ? "" : `, got ${issue.received}`;
      problems.push(`${where}: ${issue.message}${got}${nearKey(issue.message, path)}`);
    }
  }
  const apiKey = findCohereKey(merged, options.env);
  if (wantsCohere(merged) && apiKey === undefined) {
    problems.push(
      "embedder.cohere.api_key: expected a Cohere API key when embedder.provider is cohere (set it in the file, MEMSVC_EMBEDDER_COHERE_API_KEY, COHERE_API_KEY or CO_API_KEY)",
    );
  }
  if (parsed.success && parsed.output.memory.mode === "replica") {
    problems.push(
      "memory.mode: replica was removed; replicas now share a PostgreSQL store and keep the exact engine: set vector_store.provider: postgres and vector_store.postgres.url (see docs/operations.md)",
    );
  }
  const limit = parsed.success ? parsed.output.api.rate_limit : {};
  if (limit.burst !== undefined && limit.requests_per_second === undefined) {
    problems.push(
      "api.rate_limit.burst: needs api.rate_limit.requests_per_second (set it in the file or MEMSVC_API_RATE_LIMIT_REQUESTS_PER_SECOND)",
    );
  }
  if (
    parsed.success &&
    parsed.output.vector_store.provider === "postgres" &&
    parsed.output.vector_store.postgres.url === undefined
  ) {
    problems.push(
      "vector_store.postgres.url: expected a postgres:// URL when vector_store.provider is postgres (set it in the file or MEMSVC_VECTOR_STORE_POSTGRES_URL)",
    );
  }
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const { provider, postgres } = parsed.output.vector_store;
  return {
    ok: true,
    config: resolveConfig(
      parsed.output,
      file.source,
      apiKey,
      options.cwd,
      parsed.output.embedder.openai.api_key || options.env[OPENAI_KEY_ENV_FALLBACK] || undefined,
    ),
    warnings:
      provider !== "postgres" && postgres.url !== undefined
        ? [...warnings, POSTGRES_URL_UNUSED]
        : warnings,
  };
}

/** A URL without the provider would silently serve an embedded Chroma in the working directory. */
const POSTGRES_URL_UNUSED =
  "vector_store.postgres.url is set but vector_store.provider is chroma: the PostgreSQL URL is ignored and memories go to Chroma; set vector_store.provider: postgres (MEMSVC_VECTOR_STORE_PROVIDER=postgres) to use it";

/** "; did you mean api.listen_addr?" for an unknown key close to a known one, else "". */
function nearKey(message: string, path: string): string {
  if (message !== "unknown key") return "";
  const parent = path.includes(".") ? path.slice(0, path.lastIndexOf(".") + 1) : "";
  const siblings = new Set(
    CONFIG_KEYS.filter((k) => k.path.startsWith(parent)).map(
      (k) => parent + (k.path.slice(parent.length).split(".")[0] as string),
    ),
  );
  const near = suggestField(path, [...siblings]);
  return near === undefined ? "" : `; did you mean ${near}?`;
}

/** The `ollama` or `openai` slice, defaults filled in (the same as `config-keys.ts` documents). */
function httpEmbedder(
  raw: RawConfig,
  provider: "ollama" | "openai",
  apiKey: string | undefined,
): HttpEmbedderConfig {
  const c = raw.embedder[provider];
  const defaults = (name: string) =>
    CONFIG_KEYS.find((k) => k.path === `embedder.${provider}.${name}`)?.default;
  return {
    provider,
    baseUrl: c.base_url ?? String(defaults("base_url")),
    apiKey: provider === "openai" ? apiKey : undefined,
    model: c.model ?? String(defaults("model")),
    dimensions: c.dimensions ?? Number(defaults("dimensions")),
    requestDimensions: c.request_dimensions ?? false,
    timeoutMs: Math.round((c.timeout_seconds ?? 30) * 1000),
    maxRetries: c.max_retries ?? 2,
    batchSize: c.batch_size ?? Number(defaults("batch_size")),
  };
}

/** The local embedder slice: the word vectors (100) and the sentence encoder (512) are fixed. */
function localEmbedder(
  model: "word-vectors" | "use-lite" | "hashing" | undefined,
  dimensions: number | undefined,
  threads: number | undefined,
): EmbedderConfig {
  if (model === "use-lite") {
    return { provider: "local", model: "use-lite", dimensions: 512, threads: threads ?? 1 };
  }
  return (model ?? "word-vectors") === "hashing"
    ? { provider: "local", model: "hashing", dimensions: dimensions ?? 1024 }
    : { provider: "local", model: "word-vectors", dimensions: 100 };
}

/** `api.rate_limit` resolved: off without a rate; the burst defaults to the rate rounded up. */
function rateLimitOf(raw: RawConfig["api"]["rate_limit"]): MemsvcConfig["api"]["rateLimit"] {
  const rate = raw.requests_per_second;
  if (rate === undefined) return undefined;
  return { requestsPerSecond: rate, burst: raw.burst ?? Math.max(1, Math.ceil(rate)) };
}

/** A comma-separated setting as its items, trimmed, empty ones dropped. */
function commaList(text: string | undefined): readonly string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}
