import { AgentServicesError, isAgentServicesError } from "../../core/errors.js";

/**
 * Translates a node-postgres failure into the core's coded error, naming the server (host:port,
 * never the password) and the cause in words an operator can act on. Coded errors pass through.
 *
 * - unreachable server (ECONNREFUSED, a timeout, an unknown host), a server shutting down or
 *   restarting, a dropped connection: `store_unavailable` (it may come back);
 * - wrong password (28P01), no access (28000), a missing database (3D000): `config_invalid` (it
 *   will not come back by itself).
 *
 * @example
 * try { await pool.query("SELECT 1"); } catch (e) { throw postgresError(e, "127.0.0.1:5432", "ping"); }
 */
export function postgresError(error: unknown, target: string, action: string): AgentServicesError {
  if (isAgentServicesError(error)) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const at = `PostgreSQL at ${target}`;
  switch (code) {
    case "28P01":
      return new AgentServicesError(
        "config_invalid",
        `vector_store.postgres.url: ${at} rejected the password (${message})`,
        { cause: error },
      );
    case "28000":
      return new AgentServicesError(
        "config_invalid",
        `vector_store.postgres.url: ${at} refused access (${message})`,
        { cause: error },
      );
    case "3D000":
      return new AgentServicesError(
        "config_invalid",
        `vector_store.postgres.url: ${at}: ${message} (create it, or fix the database name in the URL)`,
        { cause: error },
      );
    case "ECONNREFUSED":
      return new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: ${at} refused the connection (ECONNREFUSED): is the server running and listening there?`,
        { cause: error },
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: the host of ${at} was not found (${code})`,
        { cause: error },
      );
    case "ETIMEDOUT":
    case "timeout":
      return new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: ${at} did not answer in time (${message})`,
        { cause: error },
      );
    case "57P01":
    case "57P02":
    case "57P03":
      return new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: ${at} is shutting down or starting (${message})`,
        { cause: error },
      );
    default:
      return new AgentServicesError(
        "store_unavailable",
        `vector store unavailable: ${at} failed to ${action}: ${message}`,
        { cause: error },
      );
  }
}

/** The SQLSTATE or errno code of a pg error, "timeout" for pg's own connect timeouts. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const message = (error as { message?: unknown }).message;
  if (typeof message === "string" && /timeout/i.test(message)) return "timeout";
  // AggregateError (several addresses tried): the first one's code tells the story.
  const errors = (error as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  return undefined;
}
