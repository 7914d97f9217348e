import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { SecurityFinding, SqlToolkit } from "../../../core/sql/results.js";
import type { Paint } from "./cli-output.js";
import { fileErrorText } from "../../common/file-error.js";
import { utf8Text } from "../utf8-text.js";

/** The commands that run one SQL tool per file. */
export type ToolCommand = "validate" | "scan" | "format";

/** What the tool commands were asked. */
export interface ToolRun {
  readonly command: ToolCommand;
  readonly files: readonly string[];
  readonly cwd: string;
  readonly dialect: string | undefined;
  readonly format: { indent_size: number; uppercase_keywords: boolean; add_semicolon: boolean };
  readonly json: boolean;
  readonly write: boolean;
}

/** Where they write, and how to read stdin. */
export interface ToolIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly paint: Paint;
}

const SEVERITY_ORDER: Readonly<Record<string, number>> = {
  CRITICAL: 0,
  HIGH: 1,
  MEDIUM: 2,
  LOW: 3,
};

/**
 * The scanner's findings, most severe first (CRITICAL, HIGH, MEDIUM, LOW; the scanner lists
 * them in detector order), keeping the scanner's order within one severity.
 *
 * @example
 * bySeverity([{ severity: "HIGH" }, { severity: "CRITICAL" }] as SecurityFinding[])[0]?.severity; // "CRITICAL"
 */
export function bySeverity(findings: readonly SecurityFinding[]): SecurityFinding[] {
  return [...findings].sort(
    (a, b) => (SEVERITY_ORDER[a.severity] ?? 9) - (SEVERITY_ORDER[b.severity] ?? 9),
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * `sqlsvc validate|scan|format` over files (directories already expanded): each file through its
 * tool, results in file order, a file that cannot be read reported on stderr without stopping
 * the others, and a summary line for validate and scan in text mode. Returns the exit code: 1
 * when a file is invalid, has a HIGH or CRITICAL finding, cannot be formatted or cannot be read.
 *
 * @example
 * const code = await runToolCommand(toolkit, run, { out, err, readStdin, paint: paint(false) });
 */
export async function runToolCommand(
  toolkit: SqlToolkit,
  run: ToolRun,
  io: ToolIo,
): Promise<number> {
  const p = io.paint;
  let failed = false;
  let checked = 0;
  let bad = 0;
  let findings = 0;
  let unreadable = 0;
  const counts = new Map<string, number>();
  for (const file of run.files) {
    let sql: string;
    try {
      sql = file === "-" ? await io.readStdin() : utf8Text(await readFile(resolve(run.cwd, file)));
    } catch (error) {
      io.err(`sqlsvc: ${fileErrorText(file, error)}\n`);
      failed = true;
      unreadable++;
      continue;
    }
    checked++;
    const json = (result: object) => io.out(`${JSON.stringify({ file, ...result })}\n`);
    switch (run.command) {
      case "validate": {
        const { result } = toolkit.validate(sql, run.dialect);
        if (!result.valid) {
          bad++;
          failed = true;
        }
        if (run.json) json(result);
        else if (!result.valid)
          io.out(`${p.bold(file)}: ${p.red(result.error ?? "invalid SQL")}\n`);
        break;
      }
      case "scan": {
        const { result } = toolkit.scan(sql);
        if (result.has_high) failed = true;
        if (result.findings.length > 0) bad++;
        findings += result.findings.length;
        for (const f of result.findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
        if (run.json) json({ ...result, findings: bySeverity(result.findings) });
        else {
          for (const f of bySeverity(result.findings)) {
            const level = f.severity === "CRITICAL" || f.severity === "HIGH" ? p.red : p.yellow;
            io.out(`${p.bold(file)}: ${level(f.severity)} ${f.pattern}: ${f.description}\n`);
          }
        }
        break;
      }
      case "format": {
        const outcome = toolkit.format(sql, run.format, run.dialect);
        if (!outcome.ok) {
          io.out(`${file}: ${outcome.error}\n`);
          failed = true;
          break;
        }
        if (run.json) {
          json(outcome.result);
          break;
        }
        const text = outcome.result.formatted_sql;
        const formatted = text.endsWith("\n") ? text : `${text}\n`;
        if (run.write && file !== "-") await writeFile(resolve(run.cwd, file), formatted);
        else io.out(formatted);
        break;
      }
    }
  }
  if (!run.json && run.command !== "format") {
    const line =
      run.command === "validate"
        ? bad === 0
          ? `${plural(checked, "file")} valid`
          : `${bad} of ${plural(checked, "file")} invalid`
        : findings === 0
          ? `No findings in ${plural(checked, "file")}`
          : `${plural(findings, "finding")} in ${bad} of ${plural(checked, "file")} (${[
              ...["CRITICAL", "HIGH", "MEDIUM", "LOW"].flatMap((s) =>
                counts.has(s) ? [`${counts.get(s)} ${s.toLowerCase()}`] : [],
              ),
            ].join(", ")})`;
    const unread = unreadable === 0 ? "" : `; ${plural(unreadable, "file")} could not be read`;
    io.out(`${failed ? p.bold(line + unread) : p.green(line)}\n`);
  }
  return failed ? 1 : 0;
}
