import type { LintOptions } from "../../../core/sql/lint/index.js";
import { LintConfigFinder } from "./lint-config.js";
import { expandTargets, lintFiles } from "./lint-files.js";
import { createLintReport, type LintFormat } from "./lint-report.js";

/**
 * Exit codes of `sqlsvc lint` and `sqlsvc fix` (documented in docs/sql-tool-server.md):
 * 0 nothing to report; 1 violations (lint), violations no fix can remove or, with `--check`,
 * files that would change (fix), or a file that cannot be read or written; 2 a usage or
 * configuration error.
 */
export const LINT_EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** Files worked on at once unless `--jobs` says otherwise. */
export const DEFAULT_LINT_JOBS = 16;

/** What the CLI parsed for `lint` / `fix`. */
export interface LintCommand {
  readonly mode: "lint" | "fix";
  readonly targets: readonly string[];
  readonly check: boolean;
  readonly format: LintFormat;
  readonly configPath: string | undefined;
  readonly overrides: LintOptions;
  readonly jobs: number;
  readonly cwd: string;
  readonly version: string;
}

/** Where the command writes: stdout, stderr, and whether stderr is a terminal (for progress). */
export interface LintIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly progress: boolean;
  readonly readStdin: () => Promise<string>;
}

/**
 * Runs `sqlsvc lint` or `sqlsvc fix` over files and directories: finds each file's
 * configuration, lints or fixes with bounded concurrency, prints results in file order in the
 * chosen format, shows a count on stderr when it is a terminal, and returns the exit code.
 *
 * @example
 * const code = await runLintCommand(command, { out: (s) => process.stdout.write(s), err, progress: process.stderr.isTTY, readStdin });
 */
export async function runLintCommand(command: LintCommand, io: LintIo): Promise<number> {
  const configs = new LintConfigFinder(command.configPath, command.cwd);
  try {
    await configs.check();
  } catch (error) {
    io.err(`sqlsvc: configuration error: ${(error as Error).message}\n`);
    return LINT_EXIT.usage;
  }
  const printed = new Set<string>();
  const files = await expandTargets(command.targets, command.cwd);
  const report = createLintReport(command.format, command);
  let code: number = LINT_EXIT.clean;
  let done = 0;
  let shown = 0;
  const verb = command.mode === "lint" ? "linted" : command.check ? "checked" : "fixed";
  for await (const outcome of lintFiles(files, {
    mode: command.mode,
    check: command.check,
    overrides: command.overrides,
    configs,
    cwd: command.cwd,
    jobs: command.jobs,
    readStdin: io.readStdin,
  })) {
    done++;
    if (io.progress && files.length > 1 && (done === files.length || done - shown >= 25)) {
      shown = done;
      io.err(`\rsqlsvc: ${verb} ${done}/${files.length} files`);
      if (done === files.length) io.err("\n");
    }
    if (outcome === undefined) continue;
    if (outcome.error !== undefined) {
      // One bad configuration file fails every file under it: say so once.
      if (!printed.has(outcome.error)) io.err(`sqlsvc: ${outcome.error}\n`);
      printed.add(outcome.error);
      code = Math.max(code, outcome.configError === true ? LINT_EXIT.usage : LINT_EXIT.findings);
    }
    const text = report.file(outcome);
    if (outcome.output !== undefined) {
      // `fix -`: the fixed SQL is the output; what is left goes beside it, on stderr.
      io.out(outcome.output);
      if (text !== "") io.err(text);
    } else if (text !== "") io.out(text);
    const failed =
      outcome.violations.length > 0 || (command.mode === "fix" && command.check && outcome.changed);
    if (failed) code = Math.max(code, LINT_EXIT.findings);
  }
  const end = report.end();
  if (end !== "") io.out(end);
  return code;
}
