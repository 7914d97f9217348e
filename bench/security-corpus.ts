/**
 * Detection and false-positive rates of the injection scanner on the labelled corpora, per family
 * and overall, plus the cost of one scan. Run with `npx tsx bench/security-corpus.ts`
 * (`--misses` also lists the attacks not flagged HIGH/CRITICAL and the benign queries that were).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { lintSql } from "../core/sql/lint/index.js";
import { scanSql } from "../core/sql/security/index.js";
import { tokenize } from "../core/sql/tokenizer.js";
import type { CorpusEntry } from "../tests/fixtures/security/corpus.js";
import { loadAttacks, loadBenign } from "../tests/fixtures/security/corpus.js";

function rates(entries: readonly CorpusEntry[]): Map<string, { total: number; flagged: number }> {
  const byFamily = new Map<string, { total: number; flagged: number }>();
  for (const entry of entries) {
    const row = byFamily.get(entry.family) ?? { total: 0, flagged: 0 };
    row.total++;
    if (scanSql(entry.sql).has_high) row.flagged++;
    byFamily.set(entry.family, row);
  }
  return byFamily;
}

function print(title: string, entries: readonly CorpusEntry[]): void {
  const byFamily = rates(entries);
  let total = 0;
  let flagged = 0;
  console.log(`\n${title} (flagged = at least one HIGH or CRITICAL finding)`);
  for (const [family, row] of [...byFamily].sort()) {
    total += row.total;
    flagged += row.flagged;
    console.log(
      `  ${family.padEnd(22)} ${String(row.flagged).padStart(4)}/${String(row.total).padEnd(4)} ${((100 * row.flagged) / row.total).toFixed(1).padStart(6)}%`,
    );
  }
  console.log(
    `  ${"overall".padEnd(22)} ${String(flagged).padStart(4)}/${String(total).padEnd(4)} ${((100 * flagged) / total).toFixed(1).padStart(6)}%`,
  );
}

/** Mean CPU time per call in µs (CPU time, not wall time: steadier on a shared machine). */
function timePer(entries: readonly CorpusEntry[], run: (sql: string) => unknown): number {
  const rounds = 200;
  for (const e of entries) run(e.sql);
  const start = process.cpuUsage();
  for (let r = 0; r < rounds; r++) for (const e of entries) run(e.sql);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (rounds * entries.length);
}

const attacks = loadAttacks();
const benign = loadBenign();
print(`Attacks: detection rate (${attacks.length} queries)`, attacks);
print(`Benign: false-positive rate (${benign.length} queries)`, benign);
const all = [...attacks, ...benign];
console.log(
  `\nMean CPU time per call over ${all.length} queries (mean length ${Math.round(all.reduce((n, e) => n + e.sql.length, 0) / all.length)} chars):`,
);
console.log(`  tokenize                      ${timePer(all, tokenize).toFixed(1).padStart(6)} µs`);
console.log(
  `  scanSql (tokenise + detectors) ${timePer(all, (s) => scanSql(s))
    .toFixed(1)
    .padStart(6)} µs`,
);
console.log(
  `  lintSql (tokenise + rules)     ${timePer(all, (s) => lintSql(s))
    .toFixed(1)
    .padStart(6)} µs`,
);
console.log(
  `  both, sharing one tokenisation ${timePer(all, (s) => {
    const tokens = tokenize(s);
    scanSql(s, undefined, tokens);
    lintSql(s, undefined, tokens);
  })
    .toFixed(1)
    .padStart(6)} µs`,
);
const big = benign
  .map((e) => e.sql)
  .join(";\n")
  .repeat(4);
// Warm up first: the first call of a large input mostly measures the JIT. Then the median of
// five runs, in CPU time (wall time on a shared machine mostly measures the other jobs).
for (let i = 0; i < 4; i++) scanSql(big);
const runs: { cpu: number; wall: number }[] = [];
for (let i = 0; i < 5; i++) {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  scanSql(big);
  const cpu = process.cpuUsage(cpu0);
  runs.push({ cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - wall0 });
}
const median = (values: number[]): number => values.sort((a, b) => a - b)[2] ?? NaN;
console.log(
  `One ${(big.length / 1024).toFixed(0)} KiB script (after warm-up, median of 5): ${median(runs.map((r) => r.cpu)).toFixed(1)} ms CPU, ${median(runs.map((r) => r.wall)).toFixed(1)} ms wall`,
);
console.log(
  `Load average (1, 5, 15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`,
);

if (process.argv.includes("--misses")) {
  console.log("\nAttacks not flagged HIGH/CRITICAL:");
  for (const e of attacks)
    if (!scanSql(e.sql).has_high) console.log(`  attacks.txt:${e.line} [${e.family}] ${e.sql}`);
  console.log("\nBenign queries flagged HIGH/CRITICAL:");
  for (const e of benign) {
    const r = scanSql(e.sql);
    if (r.has_high) {
      const why = r.findings
        .filter((f) => f.severity === "HIGH" || f.severity === "CRITICAL")
        .map((f) => `${f.pattern}: ${f.description}`);
      console.log(`  benign.sql:${e.line} [${e.family}] ${why.join(" | ")}`);
    }
  }
}
