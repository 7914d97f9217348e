import type { Embedder } from "../../core/ports/embedder.js";
import type { VectorStore } from "../../core/ports/vector-store.js";

/** Options of {@link createReadinessCheck}. */
export interface ReadinessCheckOptions {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  /** A successful embedder probe is trusted this long (a remote probe costs a provider call). */
  readonly embedderTtlMs?: number;
  /** Milliseconds since some origin (default `performance.now()`). */
  readonly now?: () => number;
}

/**
 * The `/readyz` check: the store answers its ping and the embedder embeds a probe text. A
 * successful embedder probe is cached (default 60 s) so an orchestrator polling every few seconds
 * does not turn into a stream of paid embedding calls. Rejects with a client-safe message.
 *
 * @example
 * const ready = createReadinessCheck({ store, embedder });
 * await ready(); // throws Error("vector store unavailable") when Chroma is down
 */
export function createReadinessCheck(options: ReadinessCheckOptions): () => Promise<void> {
  const ttl = options.embedderTtlMs ?? 60_000;
  const now = options.now ?? (() => performance.now());
  let embedderOkAt = Number.NEGATIVE_INFINITY;
  return async () => {
    try {
      await options.store.ping();
    } catch (cause) {
      throw new Error("vector store unavailable", { cause });
    }
    if (now() - embedderOkAt < ttl) return;
    try {
      await options.embedder.embedQuery("readiness probe");
      embedderOkAt = now();
    } catch (cause) {
      throw new Error("embedder unavailable", { cause });
    }
  };
}
