import { AgentServicesError } from "../../core/errors.js";

/** How an {@link EmbeddingHttpClient} talks to an embedding server. */
export interface EmbeddingHttpOptions {
  /** Base URL, e.g. `http://127.0.0.1:11434` or `https://api.openai.com/v1` (no trailing path). */
  readonly baseUrl: string;
  /** Extra headers of every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Deadline of one attempt, body included. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Retries after a 408, 429, 5xx, network error or timeout. Default 2. */
  readonly maxRetries?: number;
  /** First backoff; doubled per retry, with jitter. Default 500 ms. */
  readonly retryBaseDelayMs?: number;
  /** Bound on one call's attempts and waits together. Default 60 000 ms. */
  readonly maxElapsedMs?: number;
}

/** The defaults of {@link EmbeddingHttpOptions}. */
export const EMBEDDING_HTTP_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxRetries: 2,
  retryBaseDelayMs: 500,
  maxElapsedMs: 60_000,
});

/** A failed attempt: `retryAfterMs` from a `Retry-After` header, `transient` when worth another. */
class AttemptFailed extends Error {
  override name = "AttemptFailed";
  constructor(
    message: string,
    readonly transient: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * POSTs JSON to an embedding server with what every HTTP embedder needs: a deadline per attempt
 * that covers the body too (a server that stalls mid-answer cannot hang a request), bounded
 * retries with exponential backoff on 408, 429, 5xx, network errors and timeouts, a server's
 * `Retry-After` honoured (seconds or an HTTP date) unless waiting would pass `maxElapsedMs`, and
 * one failure for everything: `AgentServicesError("embedder_failed", "failed to generate
 * embedding")` with the cause attached. Headers (keys) never appear in a message.
 *
 * @example
 * const client = new EmbeddingHttpClient({ baseUrl: "http://127.0.0.1:11434" });
 * const body = await client.postJson("/api/embed", { model: "nomic-embed-text", input: ["hi"] }, read);
 */
export class EmbeddingHttpClient {
  readonly #baseUrl: string;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxElapsedMs: number;

  constructor(options: EmbeddingHttpOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#headers = options.headers ?? {};
    this.#timeoutMs = options.timeoutMs ?? EMBEDDING_HTTP_DEFAULTS.timeoutMs;
    this.#maxRetries = options.maxRetries ?? EMBEDDING_HTTP_DEFAULTS.maxRetries;
    this.#retryBaseDelayMs = options.retryBaseDelayMs ?? EMBEDDING_HTTP_DEFAULTS.retryBaseDelayMs;
    this.#maxElapsedMs = options.maxElapsedMs ?? EMBEDDING_HTTP_DEFAULTS.maxElapsedMs;
  }

  /**
   * POSTs `body` to `path` and gives the parsed JSON answer to `read`, which returns the result
   * or throws when the answer is malformed (not retried: the server would answer the same).
   */
  async postJson<T>(path: string, body: unknown, read: (answer: unknown) => T): Promise<T> {
    const started = Date.now();
    try {
      for (let attempt = 0; ; attempt += 1) {
        const remaining = this.#maxElapsedMs - (Date.now() - started);
        try {
          const answer = await this.#attempt(
            path,
            body,
            Math.max(1, Math.min(this.#timeoutMs, remaining)),
          );
          return read(answer);
        } catch (error) {
          if (!(error instanceof AttemptFailed) || !error.transient) throw error;
          const delay = Math.max(this.#backoff(attempt), error.retryAfterMs ?? 0);
          const canWait = Date.now() - started + delay < this.#maxElapsedMs;
          if (attempt >= this.#maxRetries || !canWait) throw error;
          await sleep(delay);
        }
      }
    } catch (cause) {
      throw new AgentServicesError("embedder_failed", "failed to generate embedding", { cause });
    }
  }

  async #attempt(path: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const response = await fetch(`${this.#baseUrl}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...this.#headers,
        },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      const text = await response.text();
      if (!response.ok) {
        const status = response.status;
        throw new AttemptFailed(
          `POST ${this.#baseUrl}${path}: HTTP ${status}: ${text.slice(0, 200)}`,
          status === 408 || status === 429 || status >= 500,
          retryAfterMs(response.headers.get("retry-after")),
        );
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new AttemptFailed(`the answer is not JSON: ${text.slice(0, 80)}`, false);
      }
    } catch (error) {
      if (error instanceof AttemptFailed) throw error;
      const url = `${this.#baseUrl}${path}`;
      const message = abort.signal.aborted
        ? `POST ${url}: no answer within ${timeoutMs} ms`
        : `POST ${url} failed: ${networkCause(error)}`;
      throw new AttemptFailed(message, true);
    } finally {
      clearTimeout(timer);
    }
  }

  #backoff(attempt: number): number {
    const base = this.#retryBaseDelayMs * 2 ** attempt;
    return base / 2 + Math.random() * (base / 2);
  }
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP date; `undefined`
 * when absent or unreadable.
 *
 * @example
 * retryAfterMs("2"); // 2000
 */
export function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * What a failed `fetch` says about the network, from undici's `cause` (the errno code and its
 * message: `ECONNREFUSED connect ECONNREFUSED 127.0.0.1:11434`), not its bare "fetch failed".
 */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const detail = typeof cause?.message === "string" ? cause.message : undefined;
  if (code !== undefined && detail !== undefined) {
    return detail.includes(code) ? detail : `${code} (${detail})`;
  }
  return detail ?? code ?? (error as Error).message;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
