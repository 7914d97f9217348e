import type { Embedder } from "../../core/ports/embedder.js";
import {
  EmbeddingHttpClient,
  type EmbeddingHttpOptions,
} from "../http-embedding/embedding-http-client.js";
import {
  checkEmbedderNumbers,
  inBatches,
  onlyVector,
  MalformedEmbeddingAnswer,
  normalisedVectors,
} from "../http-embedding/embedding-vectors.js";

/** Options of {@link OpenAiEmbedder}. */
export interface OpenAiEmbedderOptions extends Partial<EmbeddingHttpOptions> {
  /** Base URL up to the API version, default `https://api.openai.com/v1`; `/embeddings` is added. */
  readonly baseUrl?: string;
  /** Sent as `Authorization: Bearer <key>` when set (local servers usually need none). */
  readonly apiKey?: string;
  /** Default `text-embedding-3-small`. */
  readonly model?: string;
  /** Length of the model's vectors (checked on every answer). Default 1536. */
  readonly dimensions?: number;
  /** Send `dimensions` to shorten the vectors (OpenAI's text-embedding-3 models). Default false. */
  readonly requestDimensions?: boolean;
  /** Texts per request. Default 128 (OpenAI accepts up to 2048). */
  readonly batchSize?: number;
}

/**
 * An {@link Embedder} on any OpenAI-compatible `POST /v1/embeddings` (OpenAI, vLLM, LM Studio,
 * llama.cpp server, TEI): `{model, input: [...], encoding_format: "float"}` →
 * `{data: [{index, embedding}]}`, ordered by `index`. No SDK. The id is
 * `openai:<model>:<dimensions>`, so a store written with another model or length refuses to
 * start. Timeouts, retries (honouring `Retry-After`) and the one `embedder_failed` error come
 * from {@link EmbeddingHttpClient}; the key is never part of a message.
 *
 * @example
 * const embedder = new OpenAiEmbedder({ apiKey: process.env.OPENAI_API_KEY ?? "" });
 * embedder.id; // "openai:text-embedding-3-small:1536"
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly #model: string;
  readonly #batchSize: number;
  readonly #requestDimensions: boolean;
  readonly #client: EmbeddingHttpClient;

  constructor(options: OpenAiEmbedderOptions = {}) {
    this.#model = options.model ?? "text-embedding-3-small";
    this.dimensions = options.dimensions ?? 1536;
    this.#batchSize = options.batchSize ?? 128;
    this.#requestDimensions = options.requestDimensions ?? false;
    checkEmbedderNumbers("OpenAiEmbedder", {
      dimensions: this.dimensions,
      batchSize: this.#batchSize,
    });
    const { apiKey } = options;
    this.#client = new EmbeddingHttpClient({
      ...options,
      baseUrl: options.baseUrl ?? "https://api.openai.com/v1",
      headers: apiKey === undefined || apiKey === "" ? {} : { authorization: `Bearer ${apiKey}` },
    });
    this.id = `openai:${this.#model}:${this.dimensions}`;
  }

  embedDocuments(texts: readonly string[]): Promise<number[][]> {
    return inBatches(texts, this.#batchSize, (batch) => this.#embed(batch));
  }

  embedQuery(text: string): Promise<number[]> {
    return onlyVector("OpenAiEmbedder", this.#embed([text]));
  }

  #embed(texts: readonly string[]): Promise<number[][]> {
    const body = {
      model: this.#model,
      input: texts,
      encoding_format: "float",
      ...(this.#requestDimensions ? { dimensions: this.dimensions } : {}),
    };
    return this.#client.postJson("/embeddings", body, (answer) =>
      normalisedVectors(inIndexOrder(answer), texts.length, this.dimensions),
    );
  }
}

/** The `embedding` of each `data` item, by `index` (servers may answer out of order). */
function inIndexOrder(answer: unknown): unknown[] {
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new MalformedEmbeddingAnswer("the answer has no data array");
  const ordered: unknown[] = new Array<unknown>(data.length);
  for (const [position, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === "number" ? index : position;
    if (!Number.isInteger(at) || at < 0 || at >= data.length || ordered[at] !== undefined) {
      throw new MalformedEmbeddingAnswer(`data[${position}]: bad index ${String(index)}`);
    }
    ordered[at] = embedding;
  }
  return ordered;
}
