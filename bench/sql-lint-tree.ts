/**
 * `sqlsvc lint` and `sqlsvc fix` over a generated tree: writes N SQL files (default 1,000, in
 * nested directories, 5-60 lines each, with the usual style problems) to a temp directory, then
 * runs the same code path as the CLI (lint, fix --check, fix, lint again) and prints files/s,
 * CPU time per file and peak RSS for each, with the load average (the machine is shared).
 * Run with `npx tsx bench/sql-lint-tree.ts [--files 1000] [--jobs 16] [--keep]`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { runLintCommand, type LintCommand } from "../shells/sqlsvc/lint/lint-command.js";
import { seededRandom } from "./support/seeded-random.js";

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "1000" },
    jobs: { type: "string", default: "16" },
    keep: { type: "boolean", default: false },
  },
});
const FILES = Number(values.files);
const JOBS = Number(values.jobs);
const random = seededRandom(13);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const COLUMNS = ["id", "name", "email", "created_at", "total", "status", "owner_id", "amount"];
const TABLES = ["users", "orders", "payments", "events", "accounts", "invoices"];

/** One messy but valid query: mixed keyword case, leading commas, double spaces, blank lines. */
function query(): string {
  const kw = (word: string) => (random() < 0.4 ? word.toLowerCase() : word);
  const cols = Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick(COLUMNS));
  const leading = random() < 0.3;
  const list = leading
    ? cols.map((c, i) => (i === 0 ? `    ${c}` : `    , ${c}`)).join("\n")
    : cols.map((c) => `    ${c}`).join(",\n");
  const table = pick(TABLES);
  const trailing = random() < 0.3 ? "   " : "";
  const gap = random() < 0.2 ? "\n\n\n" : "\n";
  return [
    `-- ${table} report`,
    `${kw("SELECT")}\n${list}`,
    `${kw("FROM")}  ${table} ${table[0]}${trailing}`,
    `${kw("WHERE")} ${table[0]}.${pick(COLUMNS)} ${kw("IS NOT NULL")}${gap}${kw("AND")} ${table[0]}.id > ${Math.floor(random() * 1000)}`,
    `${kw("ORDER BY")} ${pick(COLUMNS)} ${kw("DESC")};`,
  ].join("\n");
}

async function generate(root: string): Promise<void> {
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `d${i % 10}`, `s${Math.floor(i / 10) % 10}`);
    await mkdir(dir, { recursive: true });
    const queries = Array.from({ length: 1 + Math.floor(random() * 6) }, query);
    await writeFile(join(dir, `q${i}.sql`), `${queries.join("\n\n")}\n`);
  }
  await writeFile(join(root, ".sqlsvc.yaml"), "exclude_rules: [L006]\n");
}

async function measure(label: string, root: string, partial: Partial<LintCommand>): Promise<void> {
  let lines = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const code = await runLintCommand(
    {
      mode: "lint",
      targets: [root],
      check: false,
      format: "text",
      configPath: undefined,
      overrides: {},
      jobs: JOBS,
      cwd: root,
      version: "bench",
      ...partial,
    },
    {
      out: (text) => (lines += text.split("\n").length - 1),
      err: () => undefined,
      progress: false,
      readStdin: () => Promise.resolve(""),
    },
  );
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `${label.padEnd(14)} ${String(Math.round(FILES / seconds)).padStart(6)} files/s  ` +
      `${seconds.toFixed(2)} s wall  ${(cpuMs / FILES).toFixed(2)} ms CPU/file  ` +
      `peak RSS ${(peak / 1048576).toFixed(0)} MB  exit ${code}  ${lines} output lines`,
  );
}

const root = await mkdtemp(join(tmpdir(), "sql-lint-tree-"));
try {
  await generate(root);
  console.log(
    `${FILES} files under ${root}, --jobs ${JOBS}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await measure("lint", root, {});
  await measure("fix --check", root, { mode: "fix", check: true });
  await measure("fix", root, { mode: "fix" });
  await measure("lint (fixed)", root, {});
  await measure("fix (again)", root, { mode: "fix", check: true });
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
} finally {
  if (!values.keep) await rm(root, { recursive: true, force: true });
}
