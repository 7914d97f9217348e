#!/usr/bin/env node
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { toSqlDialect } from "../../../core/sql/dialects.js";
import { selectLintRules, type LintOptions } from "../../../core/sql/lint/index.js";
import type { SqlToolkit } from "../../../core/sql/results.js";
import { packageVersion } from "../../common/package-version.js";
import { DEFAULT_LINT_JOBS, runLintCommand } from "../lint/lint-command.js";
import { LINT_FORMATS, type LintFormat } from "../lint/lint-report.js";

const USAGE = `Usage: sqlsvc <command> [options] FILE|DIR...

The SQL tools of sqlsvc-mcp on files, for scripts and CI. FILE "-" reads stdin; lint and fix
take directories too (every *.sql file below them).

Commands:
  validate   check syntax                   exit 1 if a file is invalid
  lint       style rules L001-L010          exit 1 if there is a violation
  fix        fix L001 L002 L003 L007 L008 L010 in place (meaning kept)
                                            exit 1 if violations remain (or, with --check,
                                            if a file would change)
  scan       SQL injection patterns         exit 1 if a HIGH or CRITICAL finding
  format     print the formatted SQL (or rewrite the files with --write)
  Exit 2 for a usage or configuration error.

Options:
  --dialect NAME   validate, lint, fix: generic, mysql, postgresql, sqlite, sqlserver, oracle,
                   snowflake (lint and fix: overrides the configuration's dialect)
  --config FILE    lint, fix: settings file (default: the nearest .sqlsvc.yaml above each file)
  --rules LIST     lint, fix: only these rules, codes or names (L001,KeywordCase)
  --exclude-rules LIST  lint, fix: skip these rules
  --format FMT     lint, fix: text (default), json, github (workflow annotations), sarif
  --check          fix: report what would change, write nothing
  --jobs N         lint, fix: files worked on at once (default ${DEFAULT_LINT_JOBS})
  --indent N       format: spaces per level, 0-16 (default 2)
  --upper          format: upper-case keywords
  --semicolon      format: end every statement with ;
  --write          format: rewrite the files instead of printing
  --json           print each file's result object as one JSON line (lint, fix: --format json)
  --help, --version
`;

type Command = "validate" | "scan" | "format";
const COMMANDS: readonly string[] = ["validate", "lint", "fix", "scan", "format"];

/** Thrown for a bad command line: usage goes to stderr, exit code 2. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
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
      help: { type: "boolean", short: "h", default: false },
      version: { type: "boolean", short: "v", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    process.stdout.write(`sqlsvc ${packageVersion()}\n`);
    return 0;
  }
  const [command, ...files] = positionals;
  if (command === undefined || !COMMANDS.includes(command))
    throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  if (files.length === 0) throw new UsageError("no FILE given");
  if (values.dialect !== undefined && toSqlDialect(values.dialect) === undefined) {
    throw new UsageError(`unknown dialect: ${values.dialect}`);
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
  if (values.check && command !== "fix") throw new UsageError("--check only applies to fix");
  if (command === "lint" || command === "fix") return lintCommand(command, files, values);

  const { loadSqlToolkit } = await import("../load-sql-toolkit.js");
  const toolkit = await loadSqlToolkit();
  let failed = false;
  for (const file of files) {
    const sql = file === "-" ? await readStdin() : await readFile(file, "utf8");
    const outcome = runOne(toolkit, command as Command, file, sql, {
      dialect: values.dialect,
      format: {
        indent_size: indent,
        uppercase_keywords: values.upper,
        add_semicolon: values.semicolon,
      },
      json: values.json,
    });
    failed ||= outcome.failed;
    if (outcome.rewrite !== undefined && values.write && file !== "-")
      await writeFile(file, outcome.rewrite);
    else if (outcome.text !== "") process.stdout.write(outcome.text);
  }
  return failed ? 1 : 0;
}

/** `sqlsvc lint` and `sqlsvc fix`: validated flags, then the shared runner. */
async function lintCommand(
  command: "lint" | "fix",
  targets: string[],
  values: {
    dialect?: string | undefined;
    config?: string | undefined;
    rules?: string | undefined;
    "exclude-rules"?: string | undefined;
    format?: string | undefined;
    check: boolean;
    jobs?: string | undefined;
    json: boolean;
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
  const dialect = values.dialect === undefined ? undefined : toSqlDialect(values.dialect);
  if (dialect !== undefined) overrides.dialect = dialect;
  try {
    selectLintRules(overrides);
  } catch (error) {
    const message = (error as Error).message.replace(/^exclude_rules/, "--exclude-rules");
    throw new UsageError(message.replace(/^rules/, "--rules"));
  }
  return runLintCommand(
    {
      mode: command,
      targets,
      check: values.check,
      format: format as LintFormat,
      configPath: values.config,
      overrides,
      jobs,
      cwd: process.cwd(),
      version: packageVersion(),
    },
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      progress: process.stderr.isTTY === true,
      readStdin,
    },
  );
}

interface RunOptions {
  readonly dialect: string | undefined;
  readonly format: { indent_size: number; uppercase_keywords: boolean; add_semicolon: boolean };
  readonly json: boolean;
}

/** One file through one tool: what to print, whether it counts as a failure, the new text. */
function runOne(
  toolkit: SqlToolkit,
  command: Command,
  file: string,
  sql: string,
  options: RunOptions,
): { text: string; failed: boolean; rewrite?: string } {
  const json = (result: object, failed: boolean) => ({
    text: `${JSON.stringify({ file, ...result })}\n`,
    failed,
  });
  switch (command) {
    case "validate": {
      const { result } = toolkit.validate(sql, options.dialect);
      if (options.json) return json(result, !result.valid);
      return {
        text: result.valid ? "" : `${file}: ${result.error ?? "invalid SQL"}\n`,
        failed: !result.valid,
      };
    }
    case "scan": {
      const { result } = toolkit.scan(sql);
      if (options.json) return json(result, result.has_high);
      const lines = result.findings.map(
        (f) => `${file}: ${f.severity} ${f.pattern}: ${f.description}\n`,
      );
      return { text: lines.join(""), failed: result.has_high };
    }
    case "format": {
      const outcome = toolkit.format(sql, options.format);
      if (!outcome.ok) return { text: `${file}: ${outcome.error}\n`, failed: true };
      if (options.json) return json(outcome.result, false);
      const formatted = outcome.result.formatted_sql.endsWith("\n")
        ? outcome.result.formatted_sql
        : `${outcome.result.formatted_sql}\n`;
      return { text: formatted, failed: false, rewrite: formatted };
    }
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage =
      error instanceof UsageError ||
      String((error as { code?: unknown } | null)?.code).startsWith("ERR_PARSE_ARGS");
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(usage ? `sqlsvc: ${message}\n\n${USAGE}` : `sqlsvc: ${message}\n`);
    process.exit(usage ? 2 : 1);
  },
);
