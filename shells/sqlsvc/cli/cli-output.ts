/**
 * Whether to colour output: only on a terminal, never when `NO_COLOR` is set to anything
 * (https://no-color.org) or `--no-color` was given; `--color` forces it (for pagers that
 * understand it, such as `less -R`).
 *
 * @example
 * useColor({ flag: undefined, env: process.env, isTTY: process.stdout.isTTY === true });
 */
export function useColor(options: {
  readonly flag: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isTTY: boolean;
}): boolean {
  if (options.flag !== undefined) return options.flag;
  const noColor = options.env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return false;
  if (options.env["TERM"] === "dumb") return false;
  return options.isTTY;
}

/** ANSI styles for the CLI's text output; every function returns its input when colour is off. */
export interface Paint {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly green: (s: string) => string;
}

const style =
  (open: number, close: number) =>
  (s: string): string =>
    `\u001b[${open}m${s}\u001b[${close}m`;

/**
 * The painter for `color` (plain text when false).
 *
 * @example
 * paint(true).red("error"); // "\u001b[31merror\u001b[39m"
 */
export function paint(color: boolean): Paint {
  if (!color) {
    const same = (s: string) => s;
    return { bold: same, dim: same, red: same, yellow: same, cyan: same, green: same };
  }
  return {
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
    green: style(32, 39),
  };
}

/** Exit status after the reader closed the pipe: the shell's status for death by SIGPIPE. */
export const CLOSED_PIPE_EXIT = 141;

/**
 * Makes a closed stdout or stderr (`sqlsvc lint . | head`) end the process quietly with
 * {@link CLOSED_PIPE_EXIT}, as the coreutils do, instead of an unhandled EPIPE stack trace.
 *
 * @example
 * exitQuietlyOnClosedPipe(process);
 */
export function exitQuietlyOnClosedPipe(proc: NodeJS.Process): void {
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") proc.exit(CLOSED_PIPE_EXIT);
    throw error;
  };
  proc.stdout.on("error", onError);
  proc.stderr.on("error", onError);
}

/**
 * Ends the process with `code` once everything written to stdout and stderr has been handed to
 * the operating system. `process.exit` alone drops what a pipe has not taken yet (a pipe holds
 * 64 KiB): `sqlsvc lint . | less` lost the report's end and its summary line. A reader that went
 * away meanwhile makes it {@link CLOSED_PIPE_EXIT}, as {@link exitQuietlyOnClosedPipe} does.
 *
 * @example
 * exitWhenWritten(process, 1);
 */
export function exitWhenWritten(proc: NodeJS.Process, code: number): void {
  let pending = 2;
  let closed = false;
  const done = (error?: Error | null) => {
    if ((error as NodeJS.ErrnoException | null | undefined)?.code === "EPIPE") closed = true;
    pending -= 1;
    if (pending === 0) proc.exit(closed ? CLOSED_PIPE_EXIT : code);
  };
  proc.stdout.write("", done);
  proc.stderr.write("", done);
}
