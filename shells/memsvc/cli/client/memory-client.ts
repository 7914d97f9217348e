import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";

/** Where a running memory service is and how to authenticate to it. */
export interface ClientTarget {
  /** Base URL, e.g. `http://localhost:8080`. */
  readonly url: string;
  /** Bearer token; undefined: none sent. */
  readonly token: string | undefined;
}

/**
 * What went wrong talking to the service, with the exit code the CLI uses for it (see
 * `EXIT_CODES` in `client-commands.ts`).
 */
export class ClientError extends Error {
  readonly exitCode: number;
  /** The HTTP status the service answered, when it answered. */
  readonly status: number | undefined;

  constructor(message: string, exitCode: number, status?: number) {
    super(message);
    this.name = "ClientError";
    this.exitCode = exitCode;
    this.status = status;
  }
}

/** Exit codes of the client commands (documented in `memsvc --help` and docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The service answered an error of its own (5xx) or could not be reached. */
  failed: 1,
  /** A usage error (unknown flag, missing argument, a `--file` it cannot open, a bad `--url`). */
  usage: 2,
  /** The service refused the request as invalid (400, 413, 422). */
  invalid: 3,
  /** The memory does not exist (404). */
  notFound: 4,
  /** The token is missing or wrong (401), or not allowed (403). */
  unauthorized: 5,
} as const;

function exitCodeOf(status: number): number {
  if (status === 404) return EXIT.notFound;
  if (status === 401 || status === 403) return EXIT.unauthorized;
  if (status >= 400 && status < 500) return EXIT.invalid;
  return EXIT.failed;
}

/**
 * A small HTTP client of the memory service's REST API for the CLI: JSON in and out, NDJSON
 * streamed, errors turned into {@link ClientError}s that name the service and what it said.
 *
 * @example
 * const client = new MemoryClient({ url: "http://localhost:8080", token: undefined });
 * const { id } = await client.json("POST", "/v1/remember", { content: "Deploys run on Fridays" });
 */
export class MemoryClient {
  readonly #target: ClientTarget;

  constructor(target: ClientTarget) {
    this.#target = target;
  }

  /** Sends JSON (or nothing) and parses the JSON answer; throws a ClientError on any failure. */
  async json<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const res = await this.#fetch(path, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
    });
    const text = await res.text();
    if (!res.ok) throw this.#refused(res.status, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ClientError(`${this.#target.url} answered something that is not JSON`, EXIT.failed);
    }
  }

  /** `GET` of an NDJSON stream, as the response body. */
  async stream(path: string): Promise<ReadableStream<Uint8Array>> {
    const res = await this.#fetch(path, { method: "GET" });
    if (!res.ok || res.body === null) throw this.#refused(res.status, await res.text());
    return res.body;
  }

  /** `POST` of an NDJSON body streamed from `source` (a file path, or a readable such as stdin). */
  async postNdjson<T>(path: string, source: string | Readable): Promise<T> {
    const readable = typeof source === "string" ? createReadStream(source) : source;
    const res = await this.#fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: readable as unknown as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    const text = await res.text();
    if (!res.ok) throw this.#refused(res.status, text);
    return JSON.parse(text) as T;
  }

  async #fetch(path: string, init: RequestInit): Promise<Response> {
    // `URL.parse` is Node 22's; this package runs on Node 20.
    const base = URL.canParse(this.#target.url) ? new URL(this.#target.url) : undefined;
    if (base === undefined || (base.protocol !== "http:" && base.protocol !== "https:")) {
      throw new ClientError(
        `--url (or MEMSVC_URL): expected an http:// or https:// URL, got ${JSON.stringify(this.#target.url)}`,
        EXIT.usage,
      );
    }
    const headers = new Headers(init.headers);
    if (this.#target.token !== undefined)
      headers.set("authorization", `Bearer ${this.#target.token}`);
    try {
      return await fetch(new URL(path, base), { ...init, headers });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? String(error);
      throw new ClientError(
        `cannot reach the memory service at ${this.#target.url} (${why}); is \`memsvc serve\` running? (--url or MEMSVC_URL)`,
        EXIT.failed,
      );
    }
  }

  #refused(status: number, text: string): ClientError {
    let message = text.trim();
    try {
      const body = JSON.parse(text) as { error?: unknown };
      if (typeof body.error === "string") message = body.error;
    } catch {
      // not JSON: keep the text
    }
    const hint = status === 401 ? " (set --token or MEMSVC_API_AUTH_TOKEN)" : "";
    return new ClientError(`${message || `HTTP ${status}`}${hint}`, exitCodeOf(status), status);
  }
}
