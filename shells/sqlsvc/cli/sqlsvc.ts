#!/usr/bin/env node
import { parseArgs } from "node:util";
import type { SqlDialect } from "../../../core/sql/dialects.js";
import {
  LINT_RULES,
  selectLintRules,
  type LintOptions,
  type LintRuleOptions,
} from "../../../core/sql/lint/index.js";
import {
  commandLineErrorText,
  HELP_AND_VERSION,
  isCommandLineError,
} from "../../common/command-line.js";
import { packageVersion } from "../../common/package-version.js";
import { DEFAULT_LINT_JOBS, runLintCommand } from "../lint/lint-command.js";
import { expandTargets } from "../lint/lint-files.js";
import { LINT_FORMATS, type LintFormat } from "../lint/lint-report.js";
import { dialectsText, rulesText } from "./catalog-commands.js";
import { exitQuietlyOnClosedPipe, exitWhenWritten, paint, useColor } from "./cli-output.js";
import { dialectNamed } from "./dialect-names.js";
import { utf8Text } from "../utf8-text.js";
import { runToolCommand, type ToolCommand } from "./tool-commands.js";

const LAST_RULE = LINT_RULES[LINT_RULES.length - 1]?.code ?? "L010";

const USAGE = `Usage: sqlsvc <command> [options] FILE|DIR...

The SQL tools of sqlsvc-mcp on files, for scripts and CI. A DIR stands for every *.sql file
below it (.git and node_modules skipped); FILE "-" reads stdin.

Commands:
  lint       lint rules (default the seed's L001-L010; --rules all for all of L001-${LAST_RULE}),
             plus files that do not lex (LXR) or parse (PRS)
                                            exit 1 if there is a violation
  fix        apply the fixes that keep the SQL's meaning, in place
                                            exit 1 if violations remain (or, with --check,
                                            if a file would change)
  validate   check syntax                   exit 1 if a file is invalid
  scan       SQL injection patterns         exit 1 if a HIGH or CRITICAL finding
  format     print the formatted SQL (or rewrite the files with --write)
  rules      list the lint rules (code, name, severity, category, fixable, SQLFluff codes)
  dialects   list the dialects and the other names they answer to

Exit codes: 0 ok, 1 as each command says above (or a file could not be read), 2 for a usage or
configuration error, 141 when the reader of the output goes away.

Options:
  --dialect NAME   generic, mysql, postgresql, sqlite, sqlserver, oracle, snowflake, or an alias
                   (postgres, tsql, mssql, mariadb, ...: see sqlsvc dialects); lint and fix:
                   overrides the configuration's dialect
  --config FILE    lint, fix: settings file (default: the nearest .sqlsvc.yaml above each file)
  --rules LIST     lint, fix: only these rules: codes, names, SQLFluff codes (AM04),
                   categories (safety, ambiguity, references, anti-pattern, aliasing,
                   consistency) or all
  --exclude-rules LIST  lint, fix: skip these rules
  --format FMT     lint, fix: text (default), json, github (workflow annotations), sarif
  --no-parse       lint, fix: check that files lex, but do not parse them (faster)
  --check          fix: report what would change, write nothing
  --jobs N         lint, fix: files worked on at once (default ${DEFAULT_LINT_JOBS})
  --indent N       format: spaces per level, 0-16 (default 2)
  --upper          format: upper-case keywords
  --semicolon      format: end every statement with ;
  --write          format: rewrite the files instead of printing
  --json           one JSON line per file (lint, fix: --format json), per rule or per dialect
  --color, --no-color  colour the text output (default: on a terminal, unless NO_COLOR is set)
  -h, --help       show this help
  -v, --version    print the version

The sqlsvc CLI reads keywords in the case the file uses (L007 keyword_case: consistent, as
SQLFluff's CP01); lint_sql keeps the seed's upper. Set it in .sqlsvc.yaml to change it.
`;

/** What a usage error prints after its message. */
const USAGE_HINT = `${USAGE.slice(0, USAGE.indexOf("\n"))}\nRun sqlsvc --help for the commands and options.\n`;

const COMMANDS: readonly string[] = [
  "validate",
  "lint",
  "fix",
  "scan",
  "format",
  "rules",
  "dialects",
];

/** The CLI's own defaults under the configuration file: keywords as the file writes them. */
const CLI_RULE_OPTIONS: LintRuleOptions = { L007: { keyword_case: "consistent" } };

/** Thrown for a bad command line: usage goes to stderr, exit code 2. */
class UsageError extends Error {}

/** The command line's options (all commands share one set; each checks what applies). */
const OPTIONS = {
  dialect: { type: "string" },
  indent: { type: "string" },
  upper: { type: "boolean", default: false },
  semicolon: { type: "boolean", default: false },
  write: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  config: { type: "string" },
  rules: { type: "string" },
  "exclude-rules": { type: "string" },
  format: { type: "string" },
  check: { type: "boolean", default: false },
  jobs: { type: "string" },
  "no-parse": { type: "boolean", default: false },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  ...HELP_AND_VERSION,
} as const;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: OPTIONS,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`sqlsvc ${packageVersion()}\n`);
    return 0;
  }
  const color = useColor({
    flag: values["no-color"] === true ? false : values.color,
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  });
  const [command, ...targets] = positionals;
  if (command === undefined) throw new UsageError(`no command given (${COMMANDS.join(", ")})`);
  if (!COMMANDS.includes(command))
    throw new UsageError(`unknown command: ${command} (${COMMANDS.join(", ")})`);
  if (command === "rules" || command === "dialects") {
    if (targets.length > 0) throw new UsageError(`${command} takes no FILE`);
    const text =
      command === "rules"
        ? rulesText(values.json, paint(color))
        : dialectsText(values.json, paint(color));
    process.stdout.write(text);
    return 0;
  }
  if (targets.length === 0) throw new UsageError("no FILE or DIR given");
  let dialect: SqlDialect | undefined;
  if (values.dialect !== undefined) {
    dialect = dialectNamed(values.dialect);
    if (dialect === undefined)
      throw new UsageError(`unknown dialect: ${values.dialect} (see sqlsvc dialects)`);
  }
  const indent = values.indent === undefined ? 2 : Number(values.indent);
  if (!Number.isInteger(indent) || indent < 0 || indent > 16)
    throw new UsageError("--indent must be an integer from 0 to 16");
  if (values.write && command !== "format") throw new UsageError("--write only applies to format");
  const lintOnly = ["config", "rules", "exclude-rules", "format", "jobs"] as const;
  for (const name of lintOnly) {
    if (values[name] !== undefined && command !== "lint" && command !== "fix")
      throw new UsageError(`--${name} only applies to lint and fix`);
  }
  if (values["no-parse"] && command !== "lint" && command !== "fix")
    throw new UsageError("--no-parse only applies to lint and fix");
  if (values.check && command !== "fix") throw new UsageError("--check only applies to fix");
  if (command === "lint" || command === "fix")
    return lintCommand(command, targets, dialect, color, values);

  const { loadSqlToolkit } = await import("../load-sql-toolkit.js");
  const toolkit = await loadSqlToolkit();
  const cwd = process.cwd();
  return runToolCommand(
    toolkit,
    {
      command: command as ToolCommand,
      files: await expandTargets(targets, cwd),
      cwd,
      dialect,
      format: {
        indent_size: indent,
        uppercase_keywords: values.upper,
        add_semicolon: values.semicolon,
      },
      json: values.json,
      write: values.write,
    },
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      readStdin,
      paint: paint(color),
    },
  );
}

/** `sqlsvc lint` and `sqlsvc fix`: validated flags, then the shared runner. */
async function lintCommand(
  command: "lint" | "fix",
  targets: string[],
  dialect: SqlDialect | undefined,
  color: boolean,
  values: {
    config?: string | undefined;
    rules?: string | undefined;
    "exclude-rules"?: string | undefined;
    format?: string | undefined;
    check: boolean;
    jobs?: string | undefined;
    json: boolean;
    "no-parse": boolean;
  },
): Promise<number> {
  const format = values.format ?? (values.json ? "json" : "text");
  if (!(LINT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${LINT_FORMATS.join(", ")}, got ${format}`);
  const jobs = values.jobs === undefined ? DEFAULT_LINT_JOBS : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 256)
    throw new UsageError("--jobs must be an integer from 1 to 256");
  const list = (text: string | undefined) =>
    text
      ?.split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
  const overrides: { -readonly [K in keyof LintOptions]: LintOptions[K] } = {};
  const rules = list(values.rules);
  const excluded = list(values["exclude-rules"]);
  if (rules !== undefined) overrides.rules = rules;
  if (excluded !== undefined) overrides.exclude_rules = excluded;
  if (dialect !== undefined) overrides.dialect = dialect;
  try {
    selectLintRules(overrides);
  } catch (error) {
    const message = (error as Error).message.replace(/^exclude_rules/, "--exclude-rules");
    throw new UsageError(message.replace(/^rules/, "--rules"));
  }
  let parseError: ((sql: string, dialect: SqlDialect) => string | undefined) | undefined;
  if (!values["no-parse"]) {
    const { loadSqlToolkit } = await import("../load-sql-toolkit.js");
    const toolkit = await loadSqlToolkit();
    parseError = (sql, name) => {
      const { result } = toolkit.validate(sql, name);
      return result.valid ? undefined : (result.error ?? "not valid SQL");
    };
  }
  return runLintCommand(
    {
      mode: command,
      targets,
      check: values.check,
      format: format as LintFormat,
      configPath: values.config,
      overrides,
      defaults: { rule_options: CLI_RULE_OPTIONS },
      jobs,
      cwd: process.cwd(),
      version: packageVersion(),
      ...(parseError === undefined ? {} : { parseError }),
    },
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      progress: process.stderr.isTTY === true,
      readStdin,
      color,
    },
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return utf8Text(Buffer.concat(chunks));
}

exitQuietlyOnClosedPipe(process);
main(process.argv.slice(2)).then(
  (code) => exitWhenWritten(process, code),
  (error: unknown) => {
    const usage = error instanceof UsageError || isCommandLineError(error);
    const message = !(error instanceof Error)
      ? String(error)
      : isCommandLineError(error)
        ? commandLineErrorText(error, Object.keys(OPTIONS))
        : error.message;
    // The error, then the usage line and where the rest is: the whole help after every
    // mistyped option pushed the one line that mattered off the screen.
    process.stderr.write(usage ? `sqlsvc: ${message}\n${USAGE_HINT}` : `sqlsvc: ${message}\n`);
    exitWhenWritten(process, usage ? 2 : 1);
  },
);
