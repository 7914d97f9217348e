import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

/** util-linux's `script`: runs a command on a pseudo-terminal (Debian: bsdutils, essential). */
export const SCRIPT_PATH = "/usr/bin/script";

/**
 * True when `script` is installed; says so loudly on stderr when it is not (the terminal tests
 * are then skipped, and that must not go unnoticed).
 *
 * @example
 * describe.skipIf(!terminalAvailable())("progress on a terminal", () => { … });
 */
export function terminalAvailable(): boolean {
  if (existsSync(SCRIPT_PATH)) return true;
  process.stderr.write(
    `\n!! SKIPPED: the terminal tests need ${SCRIPT_PATH} (apt-get install bsdutils).\n\n`,
  );
  return false;
}

/** A command running on a pseudo-terminal, started by {@link runInTerminal}. */
export interface TerminalRun {
  readonly script: ChildProcess;
  /** Everything the terminal showed so far (stdout and stderr together, `\r\n` line ends). */
  output(): string;
  /** Resolves with the pid of the command itself (printed first by the wrapping shell). */
  readonly pid: Promise<number>;
  /** Resolves with the command's exit code once it (and `script`) ended. */
  readonly ended: Promise<number | null>;
}

const PID_LINE = /^TERMINAL_PID=(\d+)\r?$/m;

/**
 * Runs `node <args>` with stdin, stdout and stderr on a pseudo-terminal (`isTTY` is true in it),
 * through `script`. The wrapping shell prints the command's pid first, so a test can signal the
 * command itself.
 *
 * @example
 * const run = runInTerminal([SQLSVC_BIN], env);
 * process.kill(await run.pid, "SIGTERM");
 * await run.ended;
 */
export function runInTerminal(args: readonly string[], env: NodeJS.ProcessEnv): TerminalRun {
  const quoted = [process.execPath, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`);
  const command = `${quoted.join(" ")} & echo TERMINAL_PID=$!; wait $!`;
  const script = spawn(SCRIPT_PATH, ["-qefc", command, "/dev/null"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let announced: ((pid: number) => void) | undefined;
  const pid = new Promise<number>((resolve) => (announced = resolve));
  const collect = (chunk: string) => {
    output += chunk;
    const match = PID_LINE.exec(output);
    if (match !== null) announced?.(Number(match[1]));
  };
  script.stdout.setEncoding("utf8").on("data", collect);
  script.stderr.setEncoding("utf8").on("data", collect);
  const ended = new Promise<number | null>((resolve) => script.once("exit", resolve));
  return { script, output: () => output, pid, ended };
}
