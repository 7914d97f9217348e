/**
 * Codes of the one error type the core throws. Shells map each code to an HTTP status or an
 * MCP error in one place.
 */
export type ErrorCode =
  /** The caller's input is wrong; the message names the field and what was expected. */
  | "invalid_input"
  /** The thing asked for does not exist (or has expired). */
  | "not_found"
  /** The embedding provider failed (network, timeout, rate limit, malformed answer). */
  | "embedder_failed"
  /** The vector store failed or cannot be reached. */
  | "store_unavailable"
  /**
   * Writes are refused for now, before anything is written (the store refuses the journaled ones,
   * or too many wait for it); nothing acknowledged is lost, and a retry later can succeed.
   */
  | "store_busy"
  /** The disk that takes writes (the write journal's) is full; writes are refused until it has room. */
  | "insufficient_storage"
  /** The store holds vectors from another embedder or dimension. */
  | "embedder_mismatch"
  /** Configuration is invalid; the message lists every problem. */
  | "config_invalid"
  /** A read-only principal asked for a write (issue 23); nothing was changed. */
  | "read_only"
  /** The write would take the tenant over its memory quota (issue 23); nothing was written. */
  | "quota_exceeded";

/**
 * The one coded error of agent-services. A broken invariant (a bug) is a plain `Error` instead.
 *
 * @example
 * throw new AgentServicesError("invalid_input", "content: expected a non-empty string");
 */
export class AgentServicesError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AgentServicesError";
    this.code = code;
  }
}

/**
 * True when `error` is an {@link AgentServicesError}, optionally with the given code.
 *
 * @example
 * if (isAgentServicesError(e, "not_found")) return c.json({ error: e.message }, 404);
 */
export function isAgentServicesError(
  error: unknown,
  code?: ErrorCode,
): error is AgentServicesError {
  return error instanceof AgentServicesError && (code === undefined || error.code === code);
}
