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
import { DEFAULT_LINT_RULE_CODES, fixSql, lintSql } from "../core/sql/lint/index.js";

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
  const hits = lintSql(rule.bad, { rules: [rule.code] }).violations;
  const bad = visible(rule.bad);
  const lines = [
    `# ${rule.code} ${rule.name}`,
    "",
    `- Severity: \`${rule.severity}\``,
    `- Category: ${rule.category}`,
    `- Fixable: ${rule.fixable ? "yes (`sqlsvc fix`, `lint_sql` with `fix: true`)" : "no"}`,
    `- Runs by default: ${DEFAULT_LINT_RULE_CODES.includes(rule.code) ? "yes (one of the seed's ten)" : `no: choose it with \`rules\` (\`${rule.code}\`, ${rule.category} or \`all\`)`}`,
    ...(rule.aliases === undefined || rule.aliases.length === 0
      ? []
      : [
          `- SQLFluff: ${rule.aliases.map((a) => `\`${a}\``).join(", ")} (accepted in \`rules\`, \`exclude_rules\` and \`noqa\`)`,
        ]),
    "",
    rule.description,
    "",
    ...renderOptions(rule),
    "## Bad",
    "",
    fence(bad),
    "",
    ...(bad !== rule.bad ? ["(`·` marks a trailing space, `→` a trailing tab.)", ""] : []),
    "Reported:",
    "",
    ...hits.map((v) =>
      `- line ${v.line}, column ${v.column}: ${v.message} (${v.suggestion})`.replace(/\*/g, "\\*"),
    ),
    "",
    "## Good",
    "",
    fence(rule.good),
    "",
    ...(rule.fixable
      ? [
          "## Fixed",
          "",
          `What \`sqlsvc fix --rules ${rule.code}\` makes of the bad example:`,
          "",
          fence(visible(fixSql(rule.bad, { rules: [rule.code] }).fixed_sql)),
          "",
        ]
      : []),
    ...renderExamples(rule),
    "_Generated from `core/sql/lint/rules/` by `npx tsx scripts/generate-rule-docs.ts`; do not edit._",
    "",
  ];
  return lines.join("\n");
}

function renderOptions(rule: LintRule): string[] {
  if (rule.options === undefined || rule.options.length === 0) return [];
  return [
    "## Options",
    "",
    `Set under \`rule_options.${rule.code}\` in \`.sqlsvc.yaml\` or the \`lint_sql\` arguments.`,
    "",
    ...rule.options.map((o) => `- \`${o.name}\` (${o.values}): ${o.description}`),
    "",
  ];
}

function renderExamples(rule: LintRule): string[] {
  const out: string[] = [];
  for (const example of rule.examples ?? []) {
    const settings = Object.entries(example.options)
      .flatMap(([code, section]) =>
        Object.entries(section as object).map(([k, v]) => `${code}.${k}: ${String(v)}`),
      )
      .join(", ");
    out.push(
      `## With ${settings}`,
      "",
      "Bad:",
      "",
      fence(visible(example.bad)),
      "",
      "Good:",
      "",
      fence(example.good),
      "",
    );
  }
  return out;
}

function renderIndex(rules: readonly LintRule[]): string {
  return [
    "# Lint rules",
    "",
    "The rules `lint_sql` and `sqlsvc lint` check. Violations are sorted by line, column and rule;",
    "lines and columns are 1-based and columns count characters (code points).",
    "",
    "The seed's ten rules, L001–L010, run by default (so `lint_sql` answers exactly as the seed",
    "says). The others run when `rules` names them: by code, name, SQLFluff code (`AM04`), SQLFluff",
    "name (`ambiguous.column_count`), category (`safety`, `ambiguity`, `references`, `anti-pattern`,",
    "`aliasing`, `consistency`, `whitespace`, `style`, `keywords`) or `all`.",
    "",
    ...rules.map((r) => {
      const codes = (r.aliases ?? []).filter((a) => !a.includes("."));
      const sqlfluff = codes.length === 0 ? "" : `; SQLFluff ${codes.join(", ")}`;
      return `- [${r.code}](./${r.code}.md) ${r.name}: ${r.severity}, ${r.category}${r.fixable ? ", fixable" : ""}${sqlfluff}`;
    }),
    "",
    `${rules.length} rules, ${rules.filter((r) => r.fixable).length} fixable.`,
    "",
    "Select rules with `rules` / `exclude_rules`, tune them with `rule_options`, and silence them",
    "in the SQL with `-- noqa`, `-- noqa: L007,AM04` or `-- noqa: disable=L005` …",
    "`-- noqa: enable=L005`; see `docs/sql-tool-server.md`.",
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
