/**
 * The Cohere adapter: an Embedder on Cohere's v2 embed API.
 *
 * @example
 * import { CohereEmbedder } from "agent-services/adapters/cohere";
 * const embedder = new CohereEmbedder({ apiKey: "…", model: "embed-v4.0", dimensions: 1024 });
 */
export { CohereEmbedder, type CohereEmbedderOptions } from "./cohere-embedder.js";
