import type { MemoryClient } from "./memory-client.js";

/** Where the CLI writes; injectable for tests of the formatting. */
export interface ClientIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A client command's parsed options. */
export type Values = Record<string, string | boolean | string[] | undefined>;

/** What one client command runs with: the service's client, its options, its argument, its io. */
export interface Run {
  readonly client: MemoryClient;
  readonly values: Values;
  readonly arg: string;
  readonly io: ClientIo;
}

/**
 * The service's answer as JSON on stdout: indented on a terminal, one line in a pipe.
 *
 * @example
 * printJson(io, { id: "m1" });
 */
export function printJson(io: ClientIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, io.stdout.isTTY === true ? 2 : undefined)}\n`);
}
