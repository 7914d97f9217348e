import { DEFAULT_LINT_RULE_CODES, LINT_RULES } from "../../../core/sql/lint/index.js";
import type { Paint } from "./cli-output.js";
import { dialectTable } from "./dialect-names.js";

/**
 * `sqlsvc rules`: every lint rule, one line each (code, name, severity, category, whether it is
 * fixable and on by default, its SQLFluff codes), or one JSON object per rule with `--json`.
 *
 * @example
 * process.stdout.write(rulesText(false, paint(false)));
 */
export function rulesText(json: boolean, p: Paint): string {
  if (json) {
    return LINT_RULES.map(
      (r) =>
        `${JSON.stringify({
          code: r.code,
          name: r.name,
          severity: r.severity,
          category: r.category,
          fixable: r.fixable,
          default: DEFAULT_LINT_RULE_CODES.includes(r.code),
          aliases: r.aliases ?? [],
        })}\n`,
    ).join("");
  }
  const width = Math.max(...LINT_RULES.map((r) => r.name.length));
  const lines = LINT_RULES.map((r) => {
    const flags = [
      r.fixable ? "fixable" : "",
      DEFAULT_LINT_RULE_CODES.includes(r.code) ? "default" : "",
    ]
      .filter((f) => f !== "")
      .join(", ");
    const aliases = (r.aliases ?? []).filter((a) => !a.includes(".")).join(" ");
    return `${p.bold(r.code)} ${r.name.padEnd(width)} ${r.severity.padEnd(7)} ${r.category.padEnd(12)} ${flags.padEnd(16)} ${p.dim(aliases)}`.trimEnd();
  });
  const fixable = LINT_RULES.filter((r) => r.fixable).length;
  return `${lines.join("\n")}\n${LINT_RULES.length} rules, ${fixable} fixable; default: ${DEFAULT_LINT_RULE_CODES.join(" ")}. Docs: docs/rules/<code>.md\n`;
}

/**
 * `sqlsvc dialects`: every dialect and the other names it answers to.
 *
 * @example
 * dialectsText(false, paint(false)).split("\n")[2]; // "postgresql  postgres, pg, pgsql"
 */
export function dialectsText(json: boolean, p: Paint): string {
  const table = dialectTable();
  if (json) return table.map((d) => `${JSON.stringify(d)}\n`).join("");
  const width = Math.max(...table.map((d) => d.name.length));
  return table
    .map((d) => `${p.bold(d.name.padEnd(width))}  ${d.aliases.join(", ")}`.trimEnd() + "\n")
    .join("");
}
