import { relative, sep } from "node:path";
import { LINT_RULES } from "../../../core/sql/lint/index.js";
import type { LintSeverity, LintViolation } from "../../../core/sql/results.js";
import { paint, type Paint } from "../cli/cli-output.js";
import type { FileOutcome } from "./lint-files.js";

/** The output formats of `sqlsvc lint` and `sqlsvc fix`. */
export const LINT_FORMATS = ["text", "json", "github", "sarif"] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

/**
 * Turns file outcomes into output: text lines, one JSON object per file, GitHub workflow
 * commands (annotations on the pull request), or one SARIF 2.1.0 log at the end (code
 * scanning). `file` prints each outcome as it comes; `end` prints what needs all of them.
 *
 * @example
 * const report = createLintReport("github", { mode: "lint", check: false, cwd, version: "0.1.0" });
 * for await (const o of outcomes) write(report.file(o));
 * write(report.end());
 */
export interface LintReport {
  file(outcome: FileOutcome): string;
  end(): string;
}

export interface LintReportOptions {
  readonly mode: "lint" | "fix";
  readonly check: boolean;
  readonly cwd: string;
  readonly version: string;
  /** Colour the text format (a terminal that allows it). */
  readonly color?: boolean;
}

function textLine(file: string, v: LintViolation, p: Paint): string {
  const level = v.severity === "error" ? p.red : v.severity === "warning" ? p.yellow : p.cyan;
  return `${p.bold(file)}${p.dim(`:${v.line}:${v.column}:`)} ${level(v.rule)} ${v.rule_name} ${p.dim(`(${v.severity})`)} ${v.message}\n`;
}

/**
 * The report for `format`.
 *
 * @example
 * createLintReport("text", options).file({ file: "a.sql", violations: [], fixed: 0, changed: false }); // ""
 */
export function createLintReport(format: LintFormat, options: LintReportOptions): LintReport {
  switch (format) {
    case "text":
      return { file: (o) => textReport(o, options, paint(options.color === true)), end: () => "" };
    case "json":
      return { file: (o) => `${JSON.stringify(jsonReport(o, options))}\n`, end: () => "" };
    case "github":
      return { file: (o) => githubReport(o, options), end: () => "" };
    case "sarif":
      return sarifReport(options);
  }
}

function fixNote(o: FileOutcome, options: LintReportOptions): string {
  if (options.mode !== "fix" || !o.changed) return "";
  const verb = options.check ? "would fix" : "fixed";
  return `${o.file}: ${verb} ${o.fixed} violation${o.fixed === 1 ? "" : "s"}\n`;
}

function textReport(o: FileOutcome, options: LintReportOptions, p: Paint): string {
  if (o.error !== undefined) return "";
  return fixNote(o, options) + o.violations.map((v) => textLine(o.file, v, p)).join("");
}

function jsonReport(o: FileOutcome, options: LintReportOptions): object {
  const base = {
    file: o.file,
    ...(o.error !== undefined ? { error: o.error } : {}),
    violation_count: o.violations.length,
    violations: o.violations,
  };
  return options.mode === "fix" ? { ...base, changed: o.changed, fixed_count: o.fixed } : base;
}

/** GitHub's escaping of workflow command data and properties. */
const escapeData = (s: string) =>
  s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

const GITHUB_LEVEL: Record<LintSeverity, string> = {
  error: "error",
  warning: "warning",
  info: "notice",
};

function githubReport(o: FileOutcome, options: LintReportOptions): string {
  const file = escapeProperty(posixPath(o.file, options.cwd));
  if (o.error !== undefined) return `::error file=${file}::${escapeData(o.error)}\n`;
  let out = "";
  if (options.mode === "fix" && options.check && o.changed) {
    out += `::error file=${file},title=sqlsvc fix::${escapeData(`${o.fixed} fixable violation(s): run sqlsvc fix`)}\n`;
  }
  for (const v of o.violations) {
    const title = escapeProperty(`${v.rule} ${v.rule_name}`);
    out += `::${GITHUB_LEVEL[v.severity]} file=${file},line=${v.line},col=${v.column},title=${title}::${escapeData(`${v.message} (${v.suggestion})`)}\n`;
  }
  return out;
}

/** A path relative to the working directory with `/` separators (as SARIF and GitHub want). */
function posixPath(file: string, cwd: string): string {
  if (file === "-") return "stdin";
  const rel = relative(cwd, file.startsWith("/") ? file : `${cwd}/${file}`);
  return rel.split(sep).join("/");
}

const SARIF_LEVEL: Record<LintSeverity, string> = {
  error: "error",
  warning: "warning",
  info: "note",
};

function sarifReport(options: LintReportOptions): LintReport {
  const results: object[] = [];
  const notifications: object[] = [];
  const ruleIndex = new Map(LINT_RULES.map((r, i) => [r.code, i]));
  return {
    file(o) {
      const uri = encodeURI(posixPath(o.file, options.cwd));
      if (o.error !== undefined) {
        notifications.push({
          level: "error",
          message: { text: o.error },
          locations: [{ physicalLocation: { artifactLocation: { uri } } }],
        });
        return "";
      }
      for (const v of o.violations) {
        results.push({
          ruleId: v.rule,
          ruleIndex: ruleIndex.get(v.rule),
          level: SARIF_LEVEL[v.severity],
          message: { text: `${v.message}. ${v.suggestion}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri, uriBaseId: "%SRCROOT%" },
                region: { startLine: v.line, startColumn: v.column },
              },
            },
          ],
        });
      }
      return "";
    },
    end() {
      const log = {
        $schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [
          {
            tool: {
              driver: {
                name: "sqlsvc",
                version: options.version,
                rules: LINT_RULES.map((r) => ({
                  id: r.code,
                  name: r.name,
                  shortDescription: { text: `${r.name} (${r.code})` },
                  fullDescription: { text: r.description },
                  defaultConfiguration: { level: SARIF_LEVEL[r.severity] },
                  properties: { category: r.category, fixable: r.fixable },
                })),
              },
            },
            invocations: [
              {
                executionSuccessful: notifications.length === 0,
                toolExecutionNotifications: notifications,
              },
            ],
            results,
          },
        ],
      };
      return `${JSON.stringify(log, null, 2)}\n`;
    },
  };
}
