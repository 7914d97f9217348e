import { opendir, readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isAgentServicesError } from "../../../core/errors.js";
import type { SqlDialect } from "../../../core/sql/dialects.js";
import {
  fixSql,
  lexViolations,
  lintWithFixes,
  parseViolation,
  type LintOptions,
  type LintRuleOptions,
} from "../../../core/sql/lint/index.js";
import type { LintViolation } from "../../../core/sql/results.js";
import { LintConfigFinder } from "./lint-config.js";
import { fileErrorText } from "../../common/file-error.js";
import { utf8Text } from "../utf8-text.js";

/** Directories never searched for SQL files. */
const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules", ".hg", ".svn"]);

/** What happened to one file. */
export interface FileOutcome {
  readonly file: string;
  /** The violations left (after fixing, for `fix`). */
  readonly violations: readonly LintViolation[];
  /** `fix` only: how many violations were (or, with `check`, would be) fixed. */
  readonly fixed: number;
  /** `lint` only: how many of the violations `sqlsvc fix` would fix. */
  readonly fixable?: number;
  /** `fix` only: the text changed (and was written unless `check`, or printed for stdin). */
  readonly changed: boolean;
  /** `fix` on stdin: the fixed text, for the caller to print. */
  readonly output?: string;
  /** The file could not be read or written, or its configuration is invalid. */
  readonly error?: string;
  /** The error is an invalid configuration (exit code 2), not a file problem. */
  readonly configError?: boolean;
}

/** How to run over the files. */
export interface LintFilesOptions {
  readonly mode: "lint" | "fix";
  /** `fix` only: report what would change without writing. */
  readonly check: boolean;
  /** Options from the command line; they win over the configuration file's. */
  readonly overrides: LintOptions;
  /** Settings under the configuration file's: its `rule_options` win key by key. */
  readonly defaults?: LintOptions;
  readonly configs: LintConfigFinder;
  readonly cwd: string;
  /** Files worked on at once (reads in flight and results held for in-order output). */
  readonly jobs: number;
  readonly readStdin: () => Promise<string>;
  /**
   * The parser's refusal of `sql` in `dialect` (`line 1, column 8: …`), or undefined when it
   * parses; absent to skip the parse check. Lexing is always checked.
   */
  readonly parseError?: (sql: string, dialect: SqlDialect) => string | undefined;
}

/** `options` over `defaults`, rule settings merged per rule and key. */
function withDefaults(options: LintOptions, defaults: LintOptions | undefined): LintOptions {
  if (defaults === undefined) return options;
  const ruleOptions: Record<string, object | undefined> = { ...defaults.rule_options };
  for (const [code, section] of Object.entries(options.rule_options ?? {})) {
    ruleOptions[code] = { ...ruleOptions[code], ...(section as object | undefined) };
  }
  return { ...defaults, ...options, rule_options: ruleOptions as LintRuleOptions };
}

/** Text with Jinja markup (dbt models): it is SQL only once rendered, so it is not parsed. */
const TEMPLATED = /\{\{|\{%/;

/** The violations that keep `sql` from being SQL at all: lexing, then (when asked) parsing. */
function syntaxViolations(
  sql: string,
  dialect: SqlDialect,
  parseError: LintFilesOptions["parseError"],
): LintViolation[] {
  const lex = lexViolations(sql, dialect);
  if (lex.length > 0 || parseError === undefined || TEMPLATED.test(sql) || sql.trim() === "")
    return lex;
  const error = parseError(sql, dialect);
  return error === undefined ? [] : [parseViolation(error)];
}

/** `a` and `b` merged in the linter's order: line, column, then rule code. */
function merged(a: readonly LintViolation[], b: readonly LintViolation[]): LintViolation[] {
  if (a.length === 0) return [...b];
  return [...a, ...b].sort(
    (x, y) =>
      x.line - y.line || x.column - y.column || (x.rule < y.rule ? -1 : x.rule > y.rule ? 1 : 0),
  );
}

/**
 * The files to lint: each argument as given, except directories, which stand for every `*.sql`
 * file below them (in name order, skipping `.git` and `node_modules`). Only paths are held, never
 * contents.
 *
 * @example
 * await expandTargets(["queries", "one.sql"], "/repo"); // ["queries/a.sql", "queries/b/c.sql", "one.sql"]
 */
export async function expandTargets(targets: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const target of targets) {
    if (target === "-") {
      out.push(target);
      continue;
    }
    let dir;
    try {
      dir = await opendir(resolvePath(cwd, target));
    } catch {
      out.push(target); // a file (or a path that fails later with a clear message)
      continue;
    }
    const names: { name: string; dir: boolean }[] = [];
    for await (const entry of dir) names.push({ name: entry.name, dir: entry.isDirectory() });
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      const path =
        target === "." || target === "./"
          ? entry.name
          : target.endsWith("/")
            ? `${target}${entry.name}`
            : `${target}/${entry.name}`;
      if (entry.dir) {
        if (!SKIPPED_DIRS.has(entry.name)) out.push(...(await expandTargets([path], cwd)));
      } else if (entry.name.toLowerCase().endsWith(".sql")) out.push(path);
    }
  }
  return out;
}

function resolvePath(cwd: string, path: string): string {
  return resolve(cwd, path);
}

/**
 * Lints (or fixes) `files` with at most `jobs` of them in flight, yielding outcomes in the order
 * of `files` as soon as each is ready; memory holds at most `jobs` files' texts. Ignored files
 * (by their configuration's `ignore` globs) are skipped and not yielded.
 *
 * @example
 * for await (const outcome of lintFiles(files, options)) print(outcome);
 */
export async function* lintFiles(
  files: readonly string[],
  options: LintFilesOptions,
): AsyncGenerator<FileOutcome | undefined> {
  const window: Promise<FileOutcome | undefined>[] = [];
  let next = 0;
  const start = () => {
    while (window.length < options.jobs && next < files.length) {
      window.push(runOne(files[next++] as string, options));
    }
  };
  start();
  while (window.length > 0) {
    const outcome = await (window.shift() as Promise<FileOutcome | undefined>);
    start();
    yield outcome;
  }
}

async function runOne(file: string, options: LintFilesOptions): Promise<FileOutcome | undefined> {
  const failed = (error: unknown): FileOutcome => ({
    file,
    violations: [],
    fixed: 0,
    changed: false,
    error: error instanceof Error ? error.message : String(error),
    ...(isAgentServicesError(error, "config_invalid") ||
    isAgentServicesError(error, "invalid_input")
      ? { configError: true }
      : {}),
  });
  try {
    const config = await options.configs.forFile(file === "-" ? "stdin.sql" : file);
    if (file !== "-" && LintConfigFinder.ignores(config, file, options.cwd)) return undefined;
    const lintOptions = withDefaults({ ...config.options, ...options.overrides }, options.defaults);
    const sql = await (
      file === "-" ? options.readStdin() : readFile(resolvePath(options.cwd, file)).then(utf8Text)
    ).catch((error: unknown) => {
      throw new Error(fileErrorText(file, error));
    });
    const dialect = lintOptions.dialect ?? "generic";
    if (options.mode === "lint") {
      const found = lintWithFixes(sql, lintOptions);
      return {
        file,
        violations: merged(
          syntaxViolations(sql, dialect, options.parseError),
          found.map((v) => v.violation),
        ),
        fixed: 0,
        fixable: found.filter((v) => v.fix !== undefined).length,
        changed: false,
      };
    }
    const result = fixSql(sql, lintOptions);
    const left = merged(
      syntaxViolations(result.fixed_sql, dialect, options.parseError),
      result.remaining.violations,
    );
    if (file === "-") {
      return {
        file,
        violations: left,
        fixed: result.fixed_count,
        changed: result.changed,
        output: result.fixed_sql,
      };
    }
    if (result.changed && !options.check)
      await writeFile(resolvePath(options.cwd, file), result.fixed_sql);
    return { file, violations: left, fixed: result.fixed_count, changed: result.changed };
  } catch (error) {
    return failed(error);
  }
}
