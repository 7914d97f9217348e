import { CLIENT_URL_ENV } from "../../config/config-keys.js";
import { ClientError, EXIT, MemoryClient } from "./memory-client.js";

/** What these helpers use of a command's `ClientIo`: stderr and the environment. */
export interface RunIo {
  readonly stderr: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A command line the client commands refuse: answered with the usage text and exit 2. */
export class UsageError extends Error {}

/**
 * A non-empty string option's value, else undefined.
 *
 * @example
 * optionText("acme"); // "acme"
 * optionText(""); // undefined
 */
export function optionText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The client of the service the command line names: `--url` or `MEMSVC_URL` (default
 * `http://localhost:8080`), `--token` or `MEMSVC_API_AUTH_TOKEN`.
 *
 * @example
 * const client = clientFor(values, io);
 */
export function clientFor(values: Readonly<Record<string, unknown>>, io: RunIo): MemoryClient {
  return new MemoryClient({
    url: optionText(values["url"]) ?? io.env[CLIENT_URL_ENV] ?? "http://localhost:8080",
    token: optionText(values["token"]) ?? (io.env["MEMSVC_API_AUTH_TOKEN"] || undefined),
  });
}

/**
 * Writes `memsvc: <message>` and the usage text to stderr; returns the usage exit code.
 *
 * @example
 * return usageAnswer(io, KEYS_USAGE, "keys create needs --tenant NAME");
 */
export function usageAnswer(io: RunIo, usageText: string, message: string): number {
  io.stderr.write(`memsvc: ${message}\n\n${usageText}`);
  return EXIT.usage;
}

/**
 * Runs a command's work and turns its refusals into exit codes: a {@link UsageError} into the
 * usage answer, a `ClientError` (the service's answer or no answer) into its message and exit
 * code. Anything else is a bug and is rethrown.
 *
 * @example
 * return answering(io, CLIENT_USAGE, async () => { await run(); return EXIT.ok; });
 */
export async function answering(
  io: RunIo,
  usageText: string,
  work: () => Promise<number>,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UsageError) return usageAnswer(io, usageText, error.message);
    if (error instanceof ClientError) {
      io.stderr.write(`memsvc: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
