/**
 * The Ollama adapter: an Embedder on a local Ollama server (`/api/embed`).
 *
 * @example
 * import { OllamaEmbedder } from "agent-services/adapters/ollama";
 * const embedder = new OllamaEmbedder({ baseUrl: "http://127.0.0.1:11434", model: "nomic-embed-text" });
 */
export { OllamaEmbedder, type OllamaEmbedderOptions } from "./ollama-embedder.js";
