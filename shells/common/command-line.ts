import { suggestField } from "../../core/memory/model/suggest-field.js";

/**
 * The options every CLI of the package has, with the same spelling: `-h/--help` and
 * `-v/--version`. Spread into each CLI's `parseArgs` options.
 *
 * @example
 * parseArgs({ args, options: { ...HELP_AND_VERSION, stdio: { type: "boolean" } } });
 */
export const HELP_AND_VERSION = Object.freeze({
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const);

/**
 * True for the errors `node:util` `parseArgs` throws for a bad command line (an unknown option,
 * a missing option value, a positional where none is allowed): the user's mistake, answered with
 * the usage and exit code 2, not a crash.
 *
 * @example
 * try { parseArgs(config); } catch (error) { if (isCommandLineError(error)) return usage(2); throw error; }
 */
export function isCommandLineError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

/**
 * The message of a `parseArgs` error in the CLIs' own words: `unknown option --projct; did you
 * mean --project?` instead of Node's paragraph about `--` and positional arguments. Other
 * errors keep Node's message.
 *
 * @example
 * commandLineErrorText(error, ["project", "type"]); // "unknown option --projct; did you mean --project?"
 */
export function commandLineErrorText(error: Error, known: readonly string[] = []): string {
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(error.message);
  if (unknown === null) return error.message;
  const [, dashes = "--", name = ""] = unknown;
  const guess = dashes === "--" ? suggestField(name, known) : undefined;
  return `unknown option ${dashes}${name}${guess === undefined ? "" : `; did you mean --${guess}?`}`;
}
