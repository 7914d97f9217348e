import * as v from "valibot";
import { isTenantName, TENANT_NAME_RULE } from "../../../core/tenancy/tenant-metadata.js";
import {
  DEFAULT_RECALL_WEIGHTS,
  MAX_RECALL_CANDIDATES,
  MAX_RECALL_CONTEXT_NEIGHBOURS,
} from "../../../core/memory/index.js";
import { parseListenAddress } from "../../common/listen-address.js";

const text = (what: string) =>
  v.pipe(v.string(`expected ${what}`), v.trim(), v.nonEmpty(`expected ${what}`));
const integerAtLeast = (min: number) =>
  v.pipe(
    v.number(`expected an integer ≥ ${min}`),
    v.integer(`expected an integer ≥ ${min}`),
    v.minValue(min, `expected an integer ≥ ${min}`),
  );
const positive = () =>
  v.pipe(
    v.number("expected a number > 0"),
    v.finite("expected a number > 0"),
    v.gtValue(0, "expected a number > 0"),
  );
const weight = () =>
  v.optional(
    v.pipe(
      v.number("expected a number in [0, 1]"),
      v.minValue(0, "expected a number in [0, 1]"),
      v.maxValue(1, "expected a number in [0, 1]"),
    ),
  );
function withDefaults(w: Partial<Record<keyof typeof DEFAULT_RECALL_WEIGHTS, number | undefined>>) {
  const out: Record<string, number> = { ...DEFAULT_RECALL_WEIGHTS };
  for (const [k, value] of Object.entries(w)) if (typeof value === "number") out[k] = value;
  return out;
}
const weightSum = (w: Parameters<typeof withDefaults>[0]) =>
  Object.values(withDefaults(w)).reduce((a, b) => a + b, 0);
const describeWeights = (w: Parameters<typeof withDefaults>[0]) => {
  const all = withDefaults(w);
  const terms = Object.entries(all).map(([k, x]) => `${k} ${x}`);
  return `got ${terms.join(" + ")} = ${+weightSum(w).toFixed(4)}`;
};

/** API routes the memory browser's path must not shadow. */
const UI_RESERVED_PATHS = ["/v1", "/mcp", "/healthz", "/readyz", "/metrics", "/openapi.json"];

/** The keys of the `ollama` and `openai` embedder sections. */
const httpEmbedderEntries = () => ({
  base_url: v.optional(v.pipe(text("an http(s) URL"), v.url("expected an http(s) URL"))),
  model: v.optional(text("a model name")),
  dimensions: v.optional(integerAtLeast(1)),
  request_dimensions: v.optional(v.boolean("expected true or false")),
  timeout_seconds: v.optional(positive()),
  max_retries: v.optional(
    v.pipe(integerAtLeast(0), v.maxValue(10, "expected an integer from 0 to 10")),
  ),
  batch_size: v.optional(
    v.pipe(integerAtLeast(1), v.maxValue(2048, "expected an integer from 1 to 2048")),
  ),
});

const section = <T extends v.ObjectEntries>(entries: T) =>
  v.optional(
    v.strictObject(entries, (issue) =>
      issue.expected === "never" ? "unknown key" : "expected a mapping",
    ),
    {} as never,
  );

/**
 * The `memsvc` YAML file after environment overrides, as written (snake_case). Every section and
 * key is optional; defaults are applied by {@link resolveConfig}. Unknown keys are problems, so a
 * typo never silently falls back to a default.
 *
 * @example
 * v.safeParse(RawConfigSchema, { api: { listen_addr: ":8080" } }).success; // true
 */
export const RawConfigSchema = v.strictObject(
  {
    api: section({
      listen_addr: v.optional(
        v.pipe(
          v.string("expected :PORT or HOST:PORT"),
          v.check(
            (s) => parseListenAddress(s).ok,
            "expected :PORT or HOST:PORT with a port 0-65535",
          ),
        ),
      ),
      auth_token: v.optional(v.string("expected a string")),
      allowed_hosts: v.optional(v.string("expected comma-separated host names")),
      allowed_origins: v.optional(v.string("expected comma-separated origins")),
      rate_limit: section({
        requests_per_second: v.optional(positive()),
        burst: v.optional(integerAtLeast(1)),
      }),
    }),
    vector_store: section({
      provider: v.optional(v.picklist(["chroma", "postgres"], "expected chroma or postgres")),
      postgres: section({
        url: v.optional(
          v.pipe(
            text("a postgres:// URL"),
            v.check(isPostgresUrl, (issue) => postgresUrlProblem(String(issue.input))),
          ),
        ),
        pool_size: v.optional(integerAtLeast(4)),
        snapshot_dir: v.optional(v.string("expected a directory path, or off for no snapshot")),
      }),
      chroma: section({
        url: v.optional(v.pipe(text("an http(s) URL"), v.url("expected an http(s) URL"))),
        path: v.optional(text("a directory path")),
        collection: v.optional(
          v.pipe(
            text("a collection name"),
            v.regex(
              /^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/,
              "expected 3-63 characters of [A-Za-z0-9._-]",
            ),
          ),
        ),
      }),
    }),
    embedder: section({
      provider: v.optional(
        v.picklist(
          ["local", "cohere", "ollama", "openai"],
          "expected local, cohere, ollama or openai",
        ),
      ),
      local: section({
        model: v.optional(
          v.picklist(
            ["word-vectors", "use-lite", "hashing"],
            "expected word-vectors, use-lite or hashing",
          ),
        ),
        dimensions: v.optional(integerAtLeast(8)),
        threads: v.optional(
          v.pipe(integerAtLeast(1), v.maxValue(64, "expected an integer from 1 to 64")),
        ),
      }),
      cohere: section({
        api_key: v.optional(v.string("expected a string")),
        base_url: v.optional(v.pipe(text("an http(s) URL"), v.url("expected an http(s) URL"))),
        model: v.optional(text("a model name")),
        dimensions: v.optional(integerAtLeast(1)),
        timeout_seconds: v.optional(positive()),
        max_retries: v.optional(integerAtLeast(0)),
      }),
      ollama: section(httpEmbedderEntries()),
      openai: section({
        ...httpEmbedderEntries(),
        api_key: v.optional(v.string("expected a string")),
      }),
    }),
    memory: section({
      ttl_hours: v.optional(positive()),
      session_idle_hours: v.optional(positive()),
      sweep_interval_seconds: v.optional(integerAtLeast(1)),
      mode: v.optional(v.picklist(["owner", "replica"], "expected owner or replica")),
    }),
    recall: section({
      candidates: v.optional(
        v.pipe(
          integerAtLeast(1),
          v.maxValue(
            MAX_RECALL_CANDIDATES,
            `expected an integer between 1 and ${MAX_RECALL_CANDIDATES}`,
          ),
        ),
      ),
      half_life_hours: v.optional(positive()),
      min_score: weight(),
      relative_floor: weight(),
      knee_gap: v.optional(
        v.pipe(
          v.number("expected a number >= 0"),
          v.finite("expected a number >= 0"),
          v.minValue(0, "expected a number >= 0"),
        ),
      ),
      context_neighbours: v.optional(
        v.pipe(
          integerAtLeast(0),
          v.maxValue(
            MAX_RECALL_CONTEXT_NEIGHBOURS,
            `expected an integer between 0 and ${MAX_RECALL_CONTEXT_NEIGHBOURS}`,
          ),
        ),
      ),
      weights: v.optional(
        v.pipe(
          v.strictObject(
            {
              similarity: weight(),
              recency: weight(),
              frequency: weight(),
              type: weight(),
              scope: weight(),
              confidence: weight(),
            },
            (issue) => (issue.expected === "never" ? "unknown key" : "expected a mapping"),
          ),
          v.check(
            (w) => Math.abs(weightSum(w) - 1) <= 0.01,
            (issue) => `expected weights summing to 1 (± 0.01), ${describeWeights(issue.input)}`,
          ),
        ),
        {} as never,
      ),
    }),
    retrieval: section({
      neighbour_lift: weight(),
    }),
    ui: section({
      enabled: v.optional(v.boolean("expected true or false")),
      path: v.optional(
        v.pipe(
          v.string("expected a path such as /ui"),
          v.regex(
            /^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?$/,
            "expected a path such as /ui: a /, then segments of [A-Za-z0-9._~-], no trailing /",
          ),
          v.check(
            (path) => !UI_RESERVED_PATHS.some((r) => path === r || path.startsWith(`${r}/`)),
            `expected a path that is not an API route (${UI_RESERVED_PATHS.join(", ")})`,
          ),
        ),
      ),
    }),
    tenants: section({
      memory_quota: v.optional(integerAtLeast(1)),
    }),
    mcp: section({
      tenant: v.optional(
        v.pipe(
          v.string("expected a tenant name"),
          v.check(isTenantName, `expected ${TENANT_NAME_RULE}`),
        ),
      ),
    }),
    log: section({
      level: v.optional(
        v.picklist(["debug", "info", "warn", "error"], "expected debug, info, warn or error"),
      ),
      format: v.optional(v.picklist(["auto", "json", "text"], "expected auto, json or text")),
    }),
  },
  (issue) => (issue.expected === "never" ? "unknown key" : "expected a mapping"),
);

/** The raw config shape (input of {@link resolveConfig}). */
export type RawConfig = v.InferOutput<typeof RawConfigSchema>;

/**
 * Why a `vector_store.postgres.url` is refused, quoting it with its password masked (the value
 * is printed at startup, and the password never appears in output). A URL with the right scheme
 * that does not parse almost always holds a password with `@`, `/`, `#`, `?` or `%` unencoded.
 *
 * @example
 * postgresUrlProblem("postgres://app:p@ss@db/memories");
 * // 'expected a postgres:// URL that parses: percent-encode … got "postgres://app:***@db/memories"'
 */
function postgresUrlProblem(value: string): string {
  const masked = JSON.stringify(maskUrlPassword(value));
  return /^postgres(ql)?:\/\//i.test(value)
    ? "expected a postgres:// URL that parses: percent-encode the characters @ : / ? # % in the " +
        `user name and password (@ as %40, / as %2F, # as %23), got ${masked}`
    : `expected a postgres:// or postgresql:// URL, got ${masked}`;
}

/** `scheme://user:secret@host…` as `scheme://user:***@host…`, even when it does not parse. */
function maskUrlPassword(value: string): string {
  const start = value.indexOf("://");
  const end = value.lastIndexOf("@");
  if (start < 0 || end < start) return value;
  const colon = value.indexOf(":", start + 3);
  return colon < 0 || colon > end ? value : `${value.slice(0, colon + 1)}***${value.slice(end)}`;
}

/**
 * True for a `postgres://` or `postgresql://` URL that parses, with no fragment and only
 * parameter names made of letters, digits and `_` (libpq's). A password with an unencoded `#` or
 * `?` after digits (`app:123#x@db`) parses as the host `app`, port 123 and a fragment or
 * parameter `x@db`: the service would dial the wrong server.
 */
function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (value.includes("#")) return false;
    for (const name of url.searchParams.keys()) if (!/^\w+$/.test(name)) return false;
    return url.protocol === "postgres:" || url.protocol === "postgresql:";
  } catch {
    return false;
  }
}
