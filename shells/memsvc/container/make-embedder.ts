import type { Embedder } from "../../../core/ports/embedder.js";
import { CohereEmbedder } from "../../../adapters/cohere/index.js";
import { OllamaEmbedder } from "../../../adapters/ollama/index.js";
import { OpenAiEmbedder } from "../../../adapters/openai/index.js";
import {
  HashingEmbedder,
  UseLiteEmbedder,
  WordVectorEmbedder,
} from "../../../adapters/local/index.js";
import type { EmbedderConfig } from "../config/memsvc-config.js";

/**
 * The embedder the configuration names: the one place where configuration chooses an embedder
 * adapter (used by `memsvc serve` through the composition root and by `memsvc reindex`).
 *
 * @example
 * const embedder = makeEmbedder({ provider: "local", model: "hashing", dimensions: 256 });
 */
export function makeEmbedder(config: EmbedderConfig): Embedder {
  if (config.provider === "local") {
    if (config.model === "hashing") return new HashingEmbedder({ dimensions: config.dimensions });
    if (config.model === "use-lite") {
      const encoder = new UseLiteEmbedder({ threads: config.threads ?? 1 });
      encoder.verify(); // a missing or damaged asset is a startup error, not a failed request
      // Start the threads now (~0.3-0.7 s each): the first request should not wait for them.
      // A failure to start is reported by every embedding call (and /readyz) until restart.
      encoder.load().catch(() => undefined);
      return encoder;
    }
    const embedder = new WordVectorEmbedder();
    embedder.load(); // a missing or damaged asset is a startup error, not a failed request
    return embedder;
  }
  if (config.provider !== "cohere") {
    const options = {
      baseUrl: config.baseUrl,
      model: config.model,
      dimensions: config.dimensions,
      requestDimensions: config.requestDimensions,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
      batchSize: config.batchSize,
    };
    return config.provider === "ollama"
      ? new OllamaEmbedder(options)
      : new OpenAiEmbedder({
          ...options,
          ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
        });
  }
  return new CohereEmbedder({
    apiKey: config.apiKey,
    ...(config.baseUrl === undefined ? {} : { baseUrl: config.baseUrl }),
    model: config.model,
    dimensions: config.dimensions,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
}
