import type { MemoryServiceOptions } from "../../../core/memory/model/types.js";
import type { ListenAddress } from "../../common/listen-address.js";

/** The log levels, least to most severe. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/**
 * The vector store slice: an external Chroma server, an embedded one under `path` (this service
 * its only writer), or a PostgreSQL database shared by any number of replicas.
 */
export type VectorStoreConfig =
  | { readonly kind: "chroma-url"; readonly url: string; readonly collection: string }
  | { readonly kind: "chroma-embedded"; readonly path: string; readonly collection: string }
  | {
      readonly kind: "postgres";
      readonly url: string;
      readonly poolSize: number;
      /** Where the replica's engine snapshot lives (`undefined`: none). */
      readonly snapshotDir: string | undefined;
    };

/** The embedder slice. */
export type EmbedderConfig =
  | {
      readonly provider: "local";
      /**
       * `word-vectors` (GloVe, 100 dimensions), `use-lite` (the sentence encoder, 512 dimensions,
       * in `threads` worker threads) or `hashing` (`dimensions` long).
       */
      readonly model: "word-vectors" | "use-lite" | "hashing";
      readonly dimensions: number;
      /** Worker threads of `use-lite` (1 otherwise: the others run in-process). */
      readonly threads?: number;
    }
  | {
      readonly provider: "cohere";
      readonly apiKey: string;
      readonly baseUrl: string | undefined;
      readonly model: string;
      readonly dimensions: number;
      readonly timeoutMs: number;
      readonly maxRetries: number;
    }
  | HttpEmbedderConfig;

/** The `ollama` and `openai` embedder slices. */
export interface HttpEmbedderConfig {
  readonly provider: "ollama" | "openai";
  readonly baseUrl: string;
  /** `openai` only; undefined: no Authorization header. */
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly dimensions: number;
  readonly requestDimensions: boolean;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly batchSize: number;
}

/**
 * The validated, defaulted configuration of `memsvc`, in typed slices for the adapters.
 *
 * @example
 * const result = loadConfig({ argv: [], env: process.env, cwd: process.cwd() });
 * if (result.ok) console.log(result.config.api.listen.port); // 8080
 */
export interface MemsvcConfig {
  /** The file the settings came from, if any. */
  readonly source: string | undefined;
  readonly api: {
    readonly listen: ListenAddress;
    /** The listen address as written, for messages. */
    readonly listenText: string;
    /** Undefined when authentication is off. */
    readonly authToken: string | undefined;
    /** More `Host` names served (`api.allowed_hosts`); see `OriginPolicy`. */
    readonly allowedHosts: readonly string[];
    /** More browser origins allowed to call (`api.allowed_origins`). */
    readonly allowedOrigins: readonly string[];
    /** The request rate per API key (`api.rate_limit`); undefined: unlimited. */
    readonly rateLimit: { readonly requestsPerSecond: number; readonly burst: number } | undefined;
  };
  readonly vectorStore: VectorStoreConfig;
  readonly embedder: EmbedderConfig;
  readonly memory: MemoryServiceOptions;
  readonly sweepIntervalMs: number;
  /** The memory browser: served at `path` unless disabled. */
  readonly ui: { readonly enabled: boolean; readonly path: string };
  /** Tenants (issue 23): the memory quota per tenant (undefined: none). */
  readonly tenants: { readonly memoryQuota: number | undefined };
  /** stdio MCP acts as the operator on this tenant. */
  readonly mcp: { readonly tenant: string };
  /** `format` undefined: text on a terminal, JSON lines otherwise. */
  readonly log: { readonly level: LogLevel; readonly format: "json" | "text" | undefined };
}
