/**
 * Local adapters: no network, no model weights.
 *
 * @example
 * import { HashingEmbedder } from "agent-services/adapters/local";
 * const embedder = new HashingEmbedder({ dimensions: 1024 });
 */
export { HashingEmbedder, type HashingEmbedderOptions } from "./hashing-embedder.js";
