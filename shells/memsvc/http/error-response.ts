import { isAgentServicesError, type ErrorCode } from "../../../core/errors.js";
import { HttpError } from "./http-error.js";
import type { Logger } from "../../common/logger.js";

/** An error answer: status, the `{error}` body's message, extra headers. */
export interface ErrorAnswer {
  readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503 | 507;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What a client may learn about a failing dependency. Core messages of these codes may carry
 * hostnames, URLs or provider answers, so they stay in the log.
 */
const PUBLIC_500: Partial<Record<ErrorCode, string>> = {
  embedder_failed: "failed to generate embedding",
  store_unavailable: "vector store unavailable",
  embedder_mismatch: "vector store holds vectors of another embedder",
};

/** Writes refused up front: fixed texts (the core's messages name paths). */
const REFUSED = {
  store_busy: {
    status: 503,
    message:
      "vector store busy: writes are refused for now (nothing acknowledged is lost); retry later",
    headers: { "Retry-After": "2" },
  },
  insufficient_storage: {
    status: 507,
    message:
      "insufficient storage: the service's disk is full; writes are refused until space is freed (reads still work)",
    headers: { "Retry-After": "10" },
  },
} as const satisfies Record<string, ErrorAnswer>;

function refusedAnswer(code: ErrorCode): ErrorAnswer | undefined {
  if (code === "store_busy") return REFUSED.store_busy;
  if (code === "insufficient_storage") return REFUSED.insufficient_storage;
  return undefined;
}

/**
 * The one place mapping errors to HTTP answers: the shell's {@link HttpError}s keep their status,
 * `invalid_input` is 400 and `not_found` 404 with the core's message (it names the field or id),
 * `read_only` 403 and `quota_exceeded` 409 with the core's message (issue 23),
 * writes refused up front are 503 (`store_busy`) or 507 (`insufficient_storage`) with
 * `Retry-After`,
 * a failing embedder or store is 500 with a fixed message, anything else is a 500 "internal
 * error". 500s log the cause (with its stack) and never send it.
 *
 * @example
 * app.onError((error, c) => {
 *   const answer = toErrorAnswer(error, logger);
 *   return c.json({ error: answer.message }, answer.status, answer.headers);
 * });
 */
export function toErrorAnswer(error: unknown, logger: Logger): ErrorAnswer {
  if (error instanceof HttpError) {
    return { status: error.status, message: error.message, headers: error.headers };
  }
  if (isAgentServicesError(error, "invalid_input")) return { status: 400, message: error.message };
  if (isAgentServicesError(error, "not_found")) return { status: 404, message: error.message };
  // Tenants (issue 23): a read-only key's write, a tenant's write over its memory quota.
  if (isAgentServicesError(error, "read_only")) return { status: 403, message: error.message };
  if (isAgentServicesError(error, "quota_exceeded")) return { status: 409, message: error.message };
  // Writes refused up front (issue 26): nothing failed and nothing acknowledged is lost.
  const refused = isAgentServicesError(error) ? refusedAnswer(error.code) : undefined;
  if (refused !== undefined) {
    logger.debug("write refused", { reason: (error as Error).message });
    return refused;
  }
  if (isClientAbort(error)) {
    // The client went away mid-request: nothing failed here and nobody reads the answer.
    logger.debug("request aborted by the client");
    return { status: 400, message: "request aborted by the client" };
  }
  const code = isAgentServicesError(error) ? error.code : "bug";
  logger.error("request failed", { code, cause: describeCause(error) });
  const known = isAgentServicesError(error) ? PUBLIC_500[error.code] : undefined;
  return { status: 500, message: known ?? "internal error" };
}

/** An error answer ready to send: status, headers (the JSON content type first) and body text. */
export interface ErrorJson {
  readonly status: ErrorAnswer["status"];
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * {@link toErrorAnswer} as the bytes that go out: `{"error": message}` with its status and
 * headers. The app's error handler and the fast path both answer with it.
 *
 * @example
 * const { status, headers, text } = toErrorJson(error, logger);
 * return c.body(text, status, headers);
 */
export function toErrorJson(error: unknown, logger: Logger): ErrorJson {
  const answer = toErrorAnswer(error, logger);
  return {
    status: answer.status,
    headers: { "Content-Type": "application/json", ...answer.headers },
    text: JSON.stringify({ error: answer.message }),
  };
}

/** Node's error for a request body cut off by the client (`abortIncoming`), or a fetch abort. */
function isClientAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "AbortError") return true;
  return error.message === "aborted" && (error as NodeJS.ErrnoException).code === "ECONNRESET";
}

/**
 * The error and its causes, one after the other, for the log. A coded error (an expected
 * condition: a remote down, bad input) is told by its messages alone, each cause naming what
 * failed; anything else is a bug, told with its stacks.
 *
 * @example
 * describeCause(new AgentServicesError("store_unavailable", "vector store unavailable", { cause }));
 * // "vector store unavailable\ncaused by: Chroma at http://127.0.0.1:8000 cannot be reached (…)"
 */
export function describeCause(error: unknown): string {
  const stacks = !isAgentServicesError(error);
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    parts.push(
      !(current instanceof Error)
        ? String(current)
        : stacks
          ? (current.stack ?? current.message)
          : depth === 0
            ? current.message
            : `${current.name === "Error" ? "" : `${current.name}: `}${current.message}`,
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join("\ncaused by: ");
}
