import type { SqlDialect } from "../../../core/sql/dialects.js";
import type { LintOptions } from "../../../core/sql/lint/index.js";
import { paint } from "../cli/cli-output.js";
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
  /** Settings under the configuration file's (the CLI's L007 `consistent`). */
  readonly defaults?: LintOptions;
  readonly jobs: number;
  readonly cwd: string;
  readonly version: string;
  /** The parse check (see `LintFilesOptions.parseError`); absent to check lexing only. */
  readonly parseError?: (sql: string, dialect: SqlDialect) => string | undefined;
}

/** Where the command writes: stdout, stderr, and whether stderr is a terminal (for progress). */
export interface LintIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly progress: boolean;
  readonly readStdin: () => Promise<string>;
  /** Colour the text output (see `useColor`). */
  readonly color?: boolean;
}

/** What the summary line counts. */
interface Totals {
  files: number;
  filesWithViolations: number;
  violations: number;
  fixable: number;
  fixed: number;
  filesFixed: number;
  unreadable: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The last line of the text format, SQLFluff-style: what was found and how much `sqlsvc fix`
 * can take care of, or what was fixed and what is left.
 *
 * @example
 * summaryLine("lint", false, totals); // "41 violations in 5 files (of 12), 39 fixable with sqlsvc fix"
 */
export function summaryLine(mode: "lint" | "fix", check: boolean, t: Totals): string {
  const unreadable = t.unreadable > 0 ? `; ${plural(t.unreadable, "file")} could not be read` : "";
  const found =
    t.violations === 0
      ? `no violations in ${plural(t.files, "file")}`
      : `${plural(t.violations, "violation")} in ${plural(t.filesWithViolations, "file")} (of ${t.files})`;
  if (mode === "lint") {
    const fixable = t.fixable > 0 ? `, ${t.fixable} fixable with sqlsvc fix` : "";
    return `${found[0]?.toUpperCase()}${found.slice(1)}${fixable}${unreadable}`;
  }
  const verb = check ? "Would fix" : "Fixed";
  const left = t.violations === 0 ? "nothing left" : `${found} left`;
  return `${verb} ${plural(t.fixed, "violation")} in ${plural(t.filesFixed, "file")}; ${left}${unreadable}`;
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
  const color = io.color === true;
  const report = createLintReport(command.format, { ...command, color });
  const totals: Totals = {
    files: 0,
    filesWithViolations: 0,
    violations: 0,
    fixable: 0,
    fixed: 0,
    filesFixed: 0,
    unreadable: 0,
  };
  let code: number = LINT_EXIT.clean;
  let done = 0;
  let shown = 0;
  const verb = command.mode === "lint" ? "linted" : command.check ? "checked" : "fixed";
  for await (const outcome of lintFiles(files, {
    mode: command.mode,
    check: command.check,
    overrides: command.overrides,
    ...(command.defaults === undefined ? {} : { defaults: command.defaults }),
    configs,
    cwd: command.cwd,
    jobs: command.jobs,
    readStdin: io.readStdin,
    ...(command.parseError === undefined ? {} : { parseError: command.parseError }),
  })) {
    done++;
    if (io.progress && files.length > 1 && (done === files.length || done - shown >= 25)) {
      shown = done;
      io.err(`\rsqlsvc: ${verb} ${done}/${files.length} files`);
      if (done === files.length) io.err("\n");
    }
    if (outcome === undefined) continue;
    if (outcome.error === undefined) {
      totals.files++;
      totals.violations += outcome.violations.length;
      if (outcome.violations.length > 0) totals.filesWithViolations++;
      totals.fixable += outcome.fixable ?? 0;
      totals.fixed += outcome.fixed;
      if (outcome.changed) totals.filesFixed++;
    } else if (outcome.configError !== true) totals.unreadable++;
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
  if (command.format === "text" && code !== LINT_EXIT.usage) {
    const p = paint(color);
    const line = summaryLine(command.mode, command.check, totals);
    const shown = `${code === LINT_EXIT.clean ? p.green(line) : p.bold(line)}\n`;
    // `fix -` prints the SQL on stdout: the summary goes beside the report, on stderr.
    if (command.targets.includes("-") && command.mode === "fix") io.err(shown);
    else io.out(shown);
  }
  return code;
}
