/**
 * Local adapters: no network, no downloads (the word vectors ship inside the package).
 *
 * @example
 * import { HashingEmbedder, WordVectorEmbedder } from "agent-services/adapters/local";
 * const embedder = new HashingEmbedder({ dimensions: 1024 });
 * const semantic = new WordVectorEmbedder(); // GloVe word vectors shipped in assets/
 * const paraphrases = new UseLiteEmbedder(); // a sentence encoder, in worker threads
 */
export { HashingEmbedder, type HashingEmbedderOptions } from "./hashing-embedder.js";
export {
  defaultWordVectorPath,
  WordVectorEmbedder,
  type WordVectorEmbedderOptions,
} from "./word-vector-embedder.js";
export {
  defaultUseLitePath,
  UseLiteEmbedder,
  type UseLiteEmbedderOptions,
} from "./use-lite-embedder.js";
