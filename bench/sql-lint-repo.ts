/**
 * Lint throughput on a real SQL repository: `sqlsvc lint` (the seed's rules, then every rule),
 * and `sqlsvc fix --rules all` on a copy (the originals are never written), over every *.sql file
 * below DIR, through the CLI's own code path with parsing on. Prints files/s, the violations and
 * what the fix left, and whether any file crashed the linter; then, when `sqlfluff` or `sqruff`
 * is on the PATH, their `lint` over the same files (ansi dialect) with files/s, for comparison.
 * The machine is shared: the load average is printed beside the figures.
 * Run with `npx tsx bench/sql-lint-repo.ts DIR [--dialect generic]`.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { SqlDialect } from "../core/sql/dialects.js";
import { createDefaultSqlParser } from "../adapters/sql/index.js";
import { createSqlToolkit } from "../core/sql/sql-toolkit.js";
import { runLintCommand, type LintCommand } from "../shells/sqlsvc/lint/lint-command.js";
import { expandTargets } from "../shells/sqlsvc/lint/lint-files.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { dialect: { type: "string", default: "generic" } },
});
const dir = positionals[0];
if (dir === undefined) {
  console.error("usage: npx tsx bench/sql-lint-repo.ts DIR [--dialect generic]");
  process.exit(2);
}
const dialect = values.dialect as SqlDialect;
const toolkit = createSqlToolkit(await createDefaultSqlParser());
const parseError = (sql: string, d: SqlDialect) => {
  const { result } = toolkit.validate(sql, d);
  return result.valid ? undefined : (result.error ?? "invalid");
};

async function timed(label: string, command: LintCommand, files: number): Promise<void> {
  let out = "";
  let err = "";
  const start = performance.now();
  const code = await runLintCommand(command, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    progress: false,
    readStdin: async () => "",
  });
  const seconds = (performance.now() - start) / 1000;
  const summary = out.trimEnd().split("\n").at(-1) ?? "";
  const crashes = (err.match(/^sqlsvc: /gm) ?? []).length;
  console.log(
    `${label.padEnd(34)} ${(files / seconds).toFixed(0).padStart(6)} files/s  ${seconds.toFixed(2)} s  exit ${code}  file errors ${crashes}  | ${summary}`,
  );
}

const files = (await expandTargets([dir], process.cwd())).length;
console.log(
  `${dir}: ${files} *.sql files; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
const base = {
  check: false,
  format: "text" as const,
  configPath: undefined,
  jobs: 16,
  cwd: process.cwd(),
  version: "bench",
  parseError,
  // The CLI's default: keyword case as the file writes it.
  defaults: { rule_options: { L007: { keyword_case: "consistent" as const } } },
};
await timed(
  "sqlsvc lint (L001-L010)",
  { ...base, mode: "lint", targets: [dir], overrides: { dialect } },
  files,
);
await timed(
  "sqlsvc lint --rules all",
  { ...base, mode: "lint", targets: [dir], overrides: { dialect, rules: ["all"] } },
  files,
);
const copy = await mkdtemp(join(tmpdir(), "sql-lint-repo-"));
try {
  await cp(dir, copy, { recursive: true });
  await timed(
    "sqlsvc fix --rules all (a copy)",
    { ...base, mode: "fix", targets: [copy], overrides: { dialect, rules: ["all"] } },
    files,
  );
  await timed(
    "sqlsvc fix again (idempotent?)",
    { ...base, mode: "fix", check: true, targets: [copy], overrides: { dialect, rules: ["all"] } },
    files,
  );
} finally {
  await rm(copy, { recursive: true, force: true });
}

for (const [tool, args] of [
  ["sqlfluff", ["lint", "--dialect", "ansi", "--nofail", "--disable-progress-bar", dir]],
  ["sqruff", ["lint", dir]],
] as const) {
  const which = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" });
  if (which.status !== 0) {
    console.log(`${tool.padEnd(34)} not installed: skipped`);
    continue;
  }
  const start = performance.now();
  const run = spawnSync(tool, [...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${`${tool} lint`.padEnd(34)} ${(files / seconds).toFixed(1).padStart(6)} files/s  ${seconds.toFixed(2)} s  exit ${run.status}`,
  );
}
