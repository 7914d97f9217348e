import { ChromaClient } from "chromadb";
import { AgentServicesError, isAgentServicesError } from "../../core/errors.js";

/** Where a Chroma server is, as the adapter's options give it. */
export interface ChromaServerOptions {
  /** Base URL of the Chroma server, e.g. `http://127.0.0.1:8000`. */
  readonly url: string;
  /** Extra HTTP headers, e.g. `{ "x-chroma-token": "…" }` for a server with auth. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A `chromadb` client for a server URL; a URL that does not parse is `config_invalid`.
 *
 * @example
 * const client = chromaClient({ url: "http://127.0.0.1:8000" });
 */
export function chromaClient(options: ChromaServerOptions): ChromaClient {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch (cause) {
    throw new AgentServicesError(
      "config_invalid",
      `chroma url: expected a URL, got "${options.url}"`,
      { cause },
    );
  }
  const ssl = url.protocol === "https:";
  return new ChromaClient({
    host: url.hostname,
    port: url.port === "" ? (ssl ? 443 : 80) : Number(url.port),
    ssl,
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
  });
}

/**
 * Runs one Chroma request with a deadline; a vendor failure or a missed deadline becomes
 * `AgentServicesError("store_unavailable")` (the fixed message clients see) with a cause that
 * names the server and what went wrong, the vendor's error under it (coded errors pass through).
 * The client's own connection error is a paragraph about browsers and CORS with no address.
 *
 * @example
 * const n = await chromaRequest(() => collection.count(), 30_000, "http://127.0.0.1:8000");
 */
export async function chromaRequest<T>(
  operation: () => Promise<T>,
  timeoutMs: number,
  server = "the configured URL",
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Chroma at ${server} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([operation(), deadline]);
  } catch (error) {
    if (isAgentServicesError(error)) throw error;
    throw new AgentServicesError("store_unavailable", "vector store unavailable", {
      cause: remoteCause(error, server),
    });
  } finally {
    clearTimeout(timer);
  }
}

function remoteCause(error: unknown, server: string): Error {
  const name = error instanceof Error ? error.name : "";
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith("Chroma at ")) return error as Error;
  const what =
    name === "ChromaConnectionError"
      ? "cannot be reached (is the server running and listening there?)"
      : `answered with an error: ${message}`;
  return new Error(`Chroma at ${server} ${what}`, { cause: error });
}
