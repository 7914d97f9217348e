/**
 * Generates `docs/rules/<code>.md` (one page per lint rule) and `docs/rules/README.md` (the index)
 * from the rule registry, so the documentation cannot drift from the code. Run with
 * `npx tsx scripts/generate-rule-docs.ts`; `tests/unit/sql/lint/rule-docs.test.ts` fails when the
 * committed pages differ from what this script would write.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LINT_RULES } from "../core/sql/lint/index.js";
import type { LintRule } from "../core/sql/lint/index.js";
import { lintSql } from "../core/sql/lint/index.js";

/** Where the pages live. */
export const RULE_DOCS_DIR = fileURLToPath(new URL("../docs/rules/", import.meta.url));

function fence(sql: string): string {
  return "```sql\n" + sql + "\n```";
}

/** Shows trailing whitespace and tabs, which a Markdown reader would not see. */
function visible(sql: string): string {
  return sql.replace(/[ \t]+$/gm, (run) => run.replaceAll(" ", "·").replaceAll("\t", "→"));
}

function renderRule(rule: LintRule): string {
  const hits = lintSql(rule.bad).violations.filter((v) => v.rule === rule.code);
  const bad = visible(rule.bad);
  const lines = [
    `# ${rule.code} ${rule.name}`,
    "",
    `- Severity: \`${rule.severity}\``,
    `- Category: ${rule.category}`,
    "",
    rule.description,
    "",
    "## Bad",
    "",
    fence(bad),
    "",
    ...(bad !== rule.bad ? ["(`·` marks a trailing space, `→` a trailing tab.)", ""] : []),
    "Reported:",
    "",
    ...hits.map((v) => `- line ${v.line}, column ${v.column}: ${v.message} (${v.suggestion})`),
    "",
    "## Good",
    "",
    fence(rule.good),
    "",
    "_Generated from `core/sql/lint/rules/` by `npx tsx scripts/generate-rule-docs.ts`; do not edit._",
    "",
  ];
  return lines.join("\n");
}

function renderIndex(rules: readonly LintRule[]): string {
  return [
    "# Lint rules",
    "",
    "The rules `lint_sql` checks. Violations are sorted by line, column and rule; lines and columns",
    "are 1-based and columns count characters (code points).",
    "",
    ...rules.map((r) => `- [${r.code}](./${r.code}.md) ${r.name}: ${r.severity}, ${r.category}`),
    "",
    "_Generated from `core/sql/lint/rules/` by `npx tsx scripts/generate-rule-docs.ts`; do not edit._",
    "",
  ].join("\n");
}

/**
 * The pages to write, by file name.
 *
 * @example
 * renderRuleDocs().get("L001.md")?.startsWith("# L001 TrailingWhitespace"); // true
 */
export function renderRuleDocs(rules: readonly LintRule[] = LINT_RULES): Map<string, string> {
  const pages = new Map<string, string>();
  for (const rule of rules) pages.set(`${rule.code}.md`, renderRule(rule));
  pages.set("README.md", renderIndex(rules));
  return pages;
}

function main(): void {
  mkdirSync(RULE_DOCS_DIR, { recursive: true });
  const pages = renderRuleDocs();
  for (const name of readdirSync(RULE_DOCS_DIR)) {
    if (name.endsWith(".md") && !pages.has(name))
      rmSync(new URL(name, pathToFileURL(RULE_DOCS_DIR)));
  }
  for (const [name, text] of pages)
    writeFileSync(new URL(name, pathToFileURL(RULE_DOCS_DIR)), text);
  console.log(`wrote ${pages.size} pages to docs/rules/`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  main();
