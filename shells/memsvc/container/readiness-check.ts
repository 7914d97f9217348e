import { AgentServicesError } from "../../../core/errors.js";
import type { Embedder } from "../../../core/ports/embedder.js";
import type { VectorStore } from "../../../core/ports/vector-store.js";

/** Options of {@link createReadinessCheck}. */
export interface ReadinessCheckOptions {
  readonly store: VectorStore;
  readonly embedder: Embedder;
  /** A successful embedder probe is trusted this long (a remote probe costs a provider call). */
  readonly embedderTtlMs?: number;
  /** Milliseconds since some origin (default `performance.now()`). */
  readonly now?: () => number;
  /**
   * Each probe (store, embedder) counts as failed after this long (default 900 ms), so a hung
   * Chroma or provider never makes `/readyz` wait longer than about two of them.
   */
  readonly probeTimeoutMs?: number;
  /** Whether the store is known to be down (e.g. the supervised Chroma died): fails at once. */
  readonly storeDown?: () => boolean;
  /**
   * Why writes are refused now, if they are (the write journal's disk is full, the store does not
   * take the journaled writes): not ready, with that reason.
   */
  readonly writeRefusal?: () => { readonly reason: string } | undefined;
}

/**
 * The `/readyz` check: writes are not refused (else the reason, e.g. a full disk, is the
 * answer), the store answers its ping and the embedder embeds a probe text. A
 * successful embedder probe is cached (default 60 s) so an orchestrator polling every few seconds
 * does not turn into a stream of paid embedding calls. Rejects with a client-safe message, as a
 * coded error (an expected condition: the log tells it by its messages, without stacks).
 *
 * @example
 * const ready = createReadinessCheck({ store, embedder });
 * await ready(); // throws Error("vector store unavailable") when Chroma is down
 */
export function createReadinessCheck(options: ReadinessCheckOptions): () => Promise<void> {
  const ttl = options.embedderTtlMs ?? 60_000;
  const now = options.now ?? (() => performance.now());
  const timeoutMs = options.probeTimeoutMs ?? 900;
  let embedderOkAt = Number.NEGATIVE_INFINITY;
  return async () => {
    const refusal = options.writeRefusal?.();
    if (refusal !== undefined) {
      throw new AgentServicesError("store_busy", `writes are refused: ${refusal.reason}`);
    }
    try {
      if (options.storeDown?.() === true) {
        throw new Error("the store is down (embedded Chroma died, or the change feed is lost)");
      }
      await withTimeout(options.store.ping(), timeoutMs, "store ping");
    } catch (cause) {
      throw new AgentServicesError("store_unavailable", "vector store unavailable", { cause });
    }
    if (now() - embedderOkAt < ttl) return;
    try {
      await withTimeout(
        options.embedder.embedQuery("readiness probe"),
        timeoutMs,
        "embedder probe",
      );
      embedderOkAt = now();
    } catch (cause) {
      throw new AgentServicesError("embedder_failed", "embedder unavailable", { cause });
    }
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
