/**
 * The OpenAI-compatible adapter: an Embedder on any `/v1/embeddings` server (OpenAI, vLLM,
 * LM Studio, llama.cpp server, TEI).
 *
 * @example
 * import { OpenAiEmbedder } from "agent-services/adapters/openai";
 * const embedder = new OpenAiEmbedder({ baseUrl: "http://127.0.0.1:8000/v1", model: "BAAI/bge-m3", dimensions: 1024 });
 */
export { OpenAiEmbedder, type OpenAiEmbedderOptions } from "./openai-embedder.js";
