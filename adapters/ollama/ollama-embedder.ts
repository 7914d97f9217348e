import type { Embedder } from "../../core/ports/embedder.js";
import {
  EmbeddingHttpClient,
  type EmbeddingHttpOptions,
} from "../http-embedding/embedding-http-client.js";
import {
  checkEmbedderNumbers,
  inBatches,
  onlyVector,
  normalisedVectors,
} from "../http-embedding/embedding-vectors.js";

/** Options of {@link OllamaEmbedder}. */
export interface OllamaEmbedderOptions extends Partial<EmbeddingHttpOptions> {
  /** Default `http://127.0.0.1:11434`. */
  readonly baseUrl?: string;
  /** Default `nomic-embed-text`. */
  readonly model?: string;
  /** Length of the model's vectors (checked on every answer). Default 768 (nomic-embed-text). */
  readonly dimensions?: number;
  /** Send `dimensions` to the server to shorten the vectors (models that support it). Default false. */
  readonly requestDimensions?: boolean;
  /** Texts per request. Default 64. */
  readonly batchSize?: number;
}

/**
 * An {@link Embedder} on a local Ollama server's `POST /api/embed` (`{model, input: [...]}` →
 * `{embeddings: [[...]]}`), with no SDK. The id is `ollama:<model>:<dimensions>`, so a store
 * written with another model or length refuses to start (the vector-space check).
 * Timeouts, retries (honouring `Retry-After`) and the one `embedder_failed` error come from
 * {@link EmbeddingHttpClient}; answers are checked and L2-normalised.
 *
 * @example
 * const embedder = new OllamaEmbedder({ model: "nomic-embed-text", dimensions: 768 });
 * embedder.id; // "ollama:nomic-embed-text:768"
 */
export class OllamaEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly #model: string;
  readonly #batchSize: number;
  readonly #requestDimensions: boolean;
  readonly #client: EmbeddingHttpClient;

  constructor(options: OllamaEmbedderOptions = {}) {
    this.#model = options.model ?? "nomic-embed-text";
    this.dimensions = options.dimensions ?? 768;
    this.#batchSize = options.batchSize ?? 64;
    this.#requestDimensions = options.requestDimensions ?? false;
    checkEmbedderNumbers("OllamaEmbedder", {
      dimensions: this.dimensions,
      batchSize: this.#batchSize,
    });
    this.#client = new EmbeddingHttpClient({
      ...options,
      baseUrl: options.baseUrl ?? "http://127.0.0.1:11434",
    });
    this.id = `ollama:${this.#model}:${this.dimensions}`;
  }

  embedDocuments(texts: readonly string[]): Promise<number[][]> {
    return inBatches(texts, this.#batchSize, (batch) => this.#embed(batch));
  }

  embedQuery(text: string): Promise<number[]> {
    return onlyVector("OllamaEmbedder", this.#embed([text]));
  }

  #embed(texts: readonly string[]): Promise<number[][]> {
    const body = {
      model: this.#model,
      input: texts,
      ...(this.#requestDimensions ? { dimensions: this.dimensions } : {}),
    };
    return this.#client.postJson("/api/embed", body, (answer) =>
      normalisedVectors(
        (answer as { embeddings?: unknown } | null)?.embeddings,
        texts.length,
        this.dimensions,
      ),
    );
  }
}
