import {
  DEFAULT_MEMORY_SERVICE_OPTIONS as MEMORY,
  neighbourLiftOf,
  recallContextNeighboursOf,
  recallKneeGapOf,
} from "../../../core/memory/index.js";

/** How an environment value is read before validation. */
export type ConfigKeyKind = "string" | "integer" | "number" | "boolean";

/** One leaf setting of the `memsvc` YAML file, with its environment variable and default. */
export interface ConfigKey {
  /** Dotted YAML path, e.g. `recall.weights.similarity`. */
  readonly path: string;
  /** `MEMSVC_` + the path with dots turned into underscores, upper-cased. */
  readonly env: string;
  readonly kind: ConfigKeyKind;
  /** The default as documented (undefined: unset unless given). */
  readonly default: string | number | boolean | undefined;
  readonly description: string;
}

function key(
  path: string,
  kind: ConfigKeyKind,
  defaultValue: string | number | boolean | undefined,
  description: string,
): ConfigKey {
  const env = `MEMSVC_${path.replaceAll(".", "_").toUpperCase()}`;
  return { path, env, kind, default: defaultValue, description };
}

/** The keys the `ollama` and `openai` embedders share, with their defaults. */
function httpEmbedderKeys(
  provider: "ollama" | "openai",
  baseUrl: string,
  model: string,
  dimensions: number,
  batchSize: number,
): ConfigKey[] {
  const name = provider === "ollama" ? "Ollama" : "OpenAI-compatible";
  const at = `embedder.${provider}`;
  return [
    key(`${at}.base_url`, "string", baseUrl, `${name} server base URL`),
    key(`${at}.model`, "string", model, `${name} embedding model`),
    key(`${at}.dimensions`, "integer", dimensions, "Vector length of the model (checked)"),
    key(
      `${at}.request_dimensions`,
      "boolean",
      false,
      "Send `dimensions` to have the server shorten vectors (models that support it)",
    ),
    key(`${at}.timeout_seconds`, "number", 30, "Deadline of one request, body included"),
    key(
      `${at}.max_retries`,
      "integer",
      2,
      "Retries on 408/429/5xx/network errors (Retry-After honoured)",
    ),
    key(`${at}.batch_size`, "integer", batchSize, "Texts per request"),
  ];
}

/**
 * Every setting of `memsvc`, in documentation order. The environment variable of a key is
 * `MEMSVC_` followed by its YAML path with `.` replaced by `_`, upper-cased
 * (`vector_store.chroma.url` → `MEMSVC_VECTOR_STORE_CHROMA_URL`). Because YAML keys themselves
 * contain underscores the mapping is resolved through this table, never by splitting the name.
 *
 * @example
 * CONFIG_KEYS.find((k) => k.path === "api.listen_addr")?.env; // "MEMSVC_API_LISTEN_ADDR"
 */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  key("api.listen_addr", "string", ":8080", "`:PORT` binds every interface, `HOST:PORT` one host"),
  key(
    "api.auth_token",
    "string",
    undefined,
    "The operator's bearer token, required on every route but /healthz and the UI page (tenants use API keys: docs/tenants.md)",
  ),
  key(
    "api.allowed_hosts",
    "string",
    undefined,
    "More names the API is reached by (comma-separated `Host` names; `*` = any)",
  ),
  key(
    "api.allowed_origins",
    "string",
    undefined,
    "More browser origins allowed to call (comma-separated `scheme://host:port`; `*` = any)",
  ),
  key(
    "api.rate_limit.requests_per_second",
    "number",
    undefined,
    "Requests per second per API key (and for the operator token), a token bucket; unset = no limit",
  ),
  key(
    "api.rate_limit.burst",
    "integer",
    undefined,
    "Requests at once a key may make after a quiet spell (default: requests_per_second rounded up)",
  ),
  key(
    "vector_store.provider",
    "string",
    "chroma",
    "`chroma` (embedded or a server; one service owns it) or `postgres` (shared by replicas)",
  ),
  key(
    "vector_store.postgres.url",
    "string",
    undefined,
    "PostgreSQL URL (`postgres://user:password@host:5432/db`); needed by provider `postgres`",
  ),
  key(
    "vector_store.postgres.pool_size",
    "integer",
    10,
    "PostgreSQL connections per service for reads and writes, and as many for cluster locks (plus one listener)",
  ),
  key(
    "vector_store.postgres.snapshot_dir",
    "string",
    "./data/replica",
    "Where a replica saves its built engines at shutdown and loads them at start, then catches up from the change feed (`off`: none, every start reads the whole store)",
  ),
  key("vector_store.chroma.url", "string", undefined, "Chroma server URL; unset = embedded Chroma"),
  key("vector_store.chroma.path", "string", "./data/chroma", "Data directory of embedded Chroma"),
  key("vector_store.chroma.collection", "string", "memories", "Chroma collection name"),
  key("embedder.provider", "string", "local", "`local` (offline), `cohere`, `ollama` or `openai`"),
  key(
    "embedder.local.model",
    "string",
    "word-vectors",
    "`word-vectors` (GloVe, semantic, 100 dimensions), `use-lite` (sentence encoder, paraphrases, 512 dimensions, opt-in) or `hashing` (lexical)",
  ),
  key(
    "embedder.local.threads",
    "integer",
    1,
    "Worker threads of the `use-lite` local embedder (each ~50 MB, one text at a time)",
  ),
  key(
    "embedder.local.dimensions",
    "integer",
    1024,
    "Vector length of the `hashing` local embedder",
  ),
  key("embedder.cohere.api_key", "string", undefined, "Cohere key (or COHERE_API_KEY, CO_API_KEY)"),
  key("embedder.cohere.base_url", "string", undefined, "Cohere API base URL override"),
  key("embedder.cohere.model", "string", "embed-v4.0", "Cohere embedding model"),
  key("embedder.cohere.dimensions", "integer", 1024, "Cohere output dimension"),
  key("embedder.cohere.timeout_seconds", "number", 10, "Per-call timeout of one Cohere request"),
  key("embedder.cohere.max_retries", "integer", 2, "Retries on 429/5xx/network errors"),
  ...httpEmbedderKeys("ollama", "http://127.0.0.1:11434", "nomic-embed-text", 768, 64),
  ...httpEmbedderKeys("openai", "https://api.openai.com/v1", "text-embedding-3-small", 1536, 128),
  key(
    "embedder.openai.api_key",
    "string",
    undefined,
    "Key sent as a bearer token (or OPENAI_API_KEY); local servers need none",
  ),
  key("memory.ttl_hours", "number", MEMORY.ttlHours, "Lifetime of a `ttl` memory"),
  key(
    "memory.session_idle_hours",
    "number",
    MEMORY.sessionIdleHours,
    "A `session` memory idle this long expires",
  ),
  key("memory.sweep_interval_seconds", "integer", 300, "How often expired memories are deleted"),
  key(
    "memory.mode",
    "string",
    "owner",
    "Removed: replicas run on PostgreSQL (`vector_store.provider: postgres`); only `owner` is accepted",
  ),
  key(
    "recall.candidates",
    "integer",
    MEMORY.recallCandidates,
    "Candidates taken by similarity before re-ranking",
  ),
  key("recall.half_life_hours", "number", MEMORY.halfLifeHours, "Half-life of the recency factor"),
  key(
    "recall.min_score",
    "number",
    MEMORY.recallMinScore,
    "Recall's default relevance floor in [0, 1] (a request's `min_score` replaces it)",
  ),
  key(
    "recall.relative_floor",
    "number",
    MEMORY.recallRelativeFloor,
    "Without a request `min_score`, recall cuts below the clearest drop in relevance among the candidates but keeps those of at least this share of the best one's relevance (1: only those above the drop, 0: no drop cut)",
  ),
  key(
    "recall.knee_gap",
    "number",
    recallKneeGapOf(MEMORY),
    'How clear a drop in relevance (in log-odds between neighbouring candidates) must be for recall to cut there; larger keeps more (docs/memory-model.md "Ranking")',
  ),
  key(
    "recall.context_neighbours",
    "integer",
    recallContextNeighboursOf(MEMORY),
    'Episodes written just before and after each recalled episode (same project and scope, within an hour) that recall adds as its context, each side (0..10; 0: off; 2 suits a store of conversation turns; a request\'s `context_neighbours` replaces it; docs/memory-model.md "Ranking")',
  ),
  key(
    "recall.weights.similarity",
    "number",
    MEMORY.weights.similarity,
    "Weight of cosine similarity",
  ),
  key(
    "recall.weights.recency",
    "number",
    MEMORY.weights.recency,
    "Weight of recency of last access",
  ),
  key("recall.weights.frequency", "number", MEMORY.weights.frequency, "Weight of access count"),
  key("recall.weights.type", "number", MEMORY.weights.type, "Weight of the memory type"),
  key("recall.weights.scope", "number", MEMORY.weights.scope, "Weight of the scope match"),
  key(
    "recall.weights.confidence",
    "number",
    MEMORY.weights.confidence,
    "Weight of the stored confidence",
  ),
  key(
    "retrieval.neighbour_lift",
    "number",
    neighbourLiftOf(MEMORY),
    'How much a search or recall candidate with words of the message gets of the relevance of the memories written just before and after it in its project and scope, in [0, 1]; 0 turns it off (docs/memory-model.md "Ranking")',
  ),
  key("ui.enabled", "boolean", true, "Serve the memory browser (`true` or `false`)"),
  key("ui.path", "string", "/ui", "Where the memory browser is served"),
  key(
    "tenants.memory_quota",
    "integer",
    undefined,
    "Most live memories one tenant may hold; a remember or batch that could pass it is refused whole with 409 (unset: no limit)",
  ),
  key(
    "mcp.tenant",
    "string",
    "default",
    "The tenant stdio MCP (`memsvc mcp`) acts on, as the operator",
  ),
  key("log.level", "string", "info", "`debug`, `info`, `warn` or `error`"),
  key(
    "log.format",
    "string",
    "auto",
    "`auto` (text with colours on a terminal, JSON lines otherwise), `json` or `text`",
  ),
];

/** Environment variables read besides the `MEMSVC_*` keys, in precedence order. */
export const COHERE_KEY_ENV_FALLBACKS = ["COHERE_API_KEY", "CO_API_KEY"] as const;

/** Read for `embedder.openai.api_key` when neither the file nor `MEMSVC_*` sets it. */
export const OPENAI_KEY_ENV_FALLBACK = "OPENAI_API_KEY";

/** The environment variable naming the config file when `--config` is not given. */
export const CONFIG_PATH_ENV = "MEMSVC_CONFIG";

/** The client commands' service address (`memsvc search …`): not a server setting, never warned about. */
export const CLIENT_URL_ENV = "MEMSVC_URL";
