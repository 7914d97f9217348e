import type * as CohereSdk from "cohere-ai";
import type { CohereClientV2 } from "cohere-ai";
import { AgentServicesError } from "../../core/errors.js";
import type { Embedder } from "../../core/ports/embedder.js";

/** Options of {@link CohereEmbedder}. */
export interface CohereEmbedderOptions {
  readonly apiKey: string;
  /** API base URL; default Cohere's own. Tests point it at a fake server. */
  readonly baseUrl?: string;
  /** Default `embed-v4.0`. */
  readonly model?: string;
  /** `output_dimension` asked for. Default 1024. */
  readonly dimensions?: number;
  /** Deadline of one HTTP attempt. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Retries after a 408, 429, 5xx, network error or timeout. Default 2. */
  readonly maxRetries?: number;
  /** First backoff; doubled per retry, with jitter. Default 500 ms. */
  readonly retryBaseDelayMs?: number;
  /** Bound on one batch's attempts and backoffs together. Default 25 000 ms. */
  readonly maxElapsedMs?: number;
  /** Texts per request; Cohere accepts at most 96. Default 96. */
  readonly batchSize?: number;
}

type InputType = "search_document" | "search_query";
type CohereModule = typeof CohereSdk;

const MAX_BATCH = 96;

/**
 * An {@link Embedder} on Cohere's v2 embed API (`cohere-ai` is loaded on first use, as its import
 * costs ~400 ms). Documents are embedded as `search_document` and queries as `search_query`, in
 * batches of at most 96 texts.
 *
 * Each request has its own deadline; 408, 429, 5xx, network errors and timeouts are retried with
 * exponential backoff, and the whole of one batch never takes longer than `maxElapsedMs`. Answers
 * are checked (one vector per text, of the asked dimension, finite) and L2-normalised. Every
 * failure is `AgentServicesError("embedder_failed", "failed to generate embedding")` with the
 * cause attached; the API key is never part of a message.
 *
 * @example
 * const embedder = new CohereEmbedder({ apiKey: process.env.COHERE_API_KEY ?? "" });
 * embedder.id; // "cohere:embed-v4.0:1024"
 * const vectors = await embedder.embedDocuments(["deploys run on Fridays"]);
 */
export class CohereEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly #options: CohereEmbedderOptions;
  readonly #model: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxElapsedMs: number;
  readonly #batchSize: number;
  #sdk: Promise<{ client: CohereClientV2; module: CohereModule }> | undefined;

  constructor(options: CohereEmbedderOptions) {
    // Checked here: an undefined key would reach the SDK, which then reads CO_API_KEY from the
    // environment behind the caller's back, or fails later as a 401 (embedder_failed).
    const apiKey: unknown = (options as Partial<CohereEmbedderOptions> | undefined)?.apiKey;
    if (typeof apiKey !== "string" || apiKey.trim() === "") {
      const got = typeof apiKey === "string" ? JSON.stringify(apiKey) : typeof apiKey;
      throw new TypeError(
        `CohereEmbedder: apiKey must be a non-empty string (the Cohere API key), got ${got}`,
      );
    }
    this.#options = options;
    this.#model = options.model ?? "embed-v4.0";
    this.dimensions = options.dimensions ?? 1024;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.#maxElapsedMs = options.maxElapsedMs ?? 25_000;
    this.#batchSize = Math.min(options.batchSize ?? MAX_BATCH, MAX_BATCH);
    if (!Number.isInteger(this.dimensions) || this.dimensions < 1) {
      throw new RangeError(
        `CohereEmbedder: dimensions must be a positive integer, got ${this.dimensions}`,
      );
    }
    if (!Number.isInteger(this.#batchSize) || this.#batchSize < 1) {
      throw new RangeError(
        `CohereEmbedder: batchSize must be an integer in 1..96, got ${this.#batchSize}`,
      );
    }
    this.id = `cohere:${this.#model}:${this.dimensions}`;
  }

  async embedDocuments(texts: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += this.#batchSize) {
      vectors.push(
        ...(await this.#embedBatch(texts.slice(i, i + this.#batchSize), "search_document")),
      );
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.#embedBatch([text], "search_query");
    if (vector === undefined) throw new Error("CohereEmbedder: a checked answer lost its vector");
    return vector;
  }

  async #embedBatch(texts: readonly string[], inputType: InputType): Promise<number[][]> {
    try {
      const { client, module } = await this.#loadSdk();
      const started = Date.now();
      for (let attempt = 0; ; attempt += 1) {
        const remaining = this.#maxElapsedMs - (Date.now() - started);
        try {
          const floats = await this.#request(
            client,
            texts,
            inputType,
            Math.max(1, Math.min(this.#timeoutMs, remaining)),
          );
          return this.#check(floats, texts.length);
        } catch (error) {
          const delay = this.#backoff(attempt);
          const canWait = Date.now() - started + delay < this.#maxElapsedMs;
          if (attempt >= this.#maxRetries || !canWait || !isTransient(error, module)) throw error;
          await sleep(delay);
        }
      }
    } catch (cause) {
      throw new AgentServicesError("embedder_failed", "failed to generate embedding", { cause });
    }
  }

  async #request(
    client: CohereClientV2,
    texts: readonly string[],
    inputType: InputType,
    timeoutMs: number,
  ): Promise<unknown> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // Our own deadline too: the SDK's timeout does not cover a stalled response body.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new RequestTimeout(`Cohere did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const response = await Promise.race([
        client.embed(
          {
            model: this.#model,
            texts: [...texts],
            inputType,
            embeddingTypes: ["float"],
            outputDimension: this.dimensions,
          },
          { maxRetries: 0, timeoutInSeconds: timeoutMs / 1000, abortSignal: abort.signal },
        ),
        deadline,
      ]);
      // The SDK passes some malformed bodies through untyped: read defensively, #check decides.
      return (response as { embeddings?: { float?: unknown } } | undefined)?.embeddings?.float;
    } finally {
      clearTimeout(timer);
    }
  }

  #check(floats: unknown, count: number): number[][] {
    if (!Array.isArray(floats) || floats.length !== count) {
      throw new MalformedAnswer(
        `expected ${count} float vectors, got ${Array.isArray(floats) ? floats.length : typeof floats}`,
      );
    }
    return floats.map((vector: unknown, i) => {
      if (!Array.isArray(vector) || vector.length !== this.dimensions) {
        throw new MalformedAnswer(
          `vector ${i}: expected ${this.dimensions} numbers, got ${Array.isArray(vector) ? vector.length : typeof vector}`,
        );
      }
      let sum = 0;
      for (const x of vector) {
        if (typeof x !== "number" || !Number.isFinite(x))
          throw new MalformedAnswer(`vector ${i}: not a finite number`);
        sum += x * x;
      }
      if (sum === 0) throw new MalformedAnswer(`vector ${i} is all zeros`);
      const norm = Math.sqrt(sum);
      return (vector as number[]).map((x) => x / norm);
    });
  }

  #backoff(attempt: number): number {
    const base = this.#retryBaseDelayMs * 2 ** attempt;
    return base / 2 + Math.random() * (base / 2);
  }

  #loadSdk(): Promise<{ client: CohereClientV2; module: CohereModule }> {
    this.#sdk ??= import("cohere-ai").then((module) => ({
      module,
      client: new module.CohereClientV2({
        token: this.#options.apiKey,
        ...(this.#options.baseUrl === undefined ? {} : { baseUrl: this.#options.baseUrl }),
        maxRetries: 0,
      }),
    }));
    // A failed import is not cached, so a later call can try again.
    this.#sdk.catch(() => {
      this.#sdk = undefined;
    });
    return this.#sdk;
  }
}

class RequestTimeout extends Error {
  override name = "RequestTimeout";
}

class MalformedAnswer extends Error {
  override name = "MalformedAnswer";
}

/** Worth another try: rate limits, server errors, timeouts and failed connections. */
function isTransient(error: unknown, module: CohereModule): boolean {
  if (error instanceof RequestTimeout) return true;
  if (error instanceof module.CohereTimeoutError) return true;
  if (error instanceof module.CohereError) {
    const status = error.statusCode;
    // No status: the request never got an HTTP answer (timeout, refused, reset).
    return status === undefined || status === 408 || status === 429 || status >= 500;
  }
  return false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
