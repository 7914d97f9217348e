import type { Token } from "../../token.js";
import { isSignificant } from "../lint-context.js";
import type { LintContext } from "../lint-context.js";
import type { LintFinding, LintRule } from "../lint-rule.js";

/**
 * L008: a comma that begins a line (leading-comma style) when trailing commas are expected (the
 * default), or a comma that ends a line when the `comma_style` setting asks for leading commas.
 * Fix: the comma moves to the end of the previous item (or to the start of the next one); only
 * the comma and the spaces around it move, so the SQL means the same.
 *
 * @example
 * commaPlacement.check(createLintContext("SELECT id\n     , name\nFROM t"), report); // 2:6
 */
export const commaPlacement: LintRule = {
  code: "L008",
  name: "CommaPlacement",
  severity: "info",
  category: "style",
  aliases: ["LT04", "layout.commas"],
  description:
    "Reports commas that begin a line (leading-comma style) when something follows them on that line. The project prefers trailing commas: each line then reads as a complete list item, matching how most formatters and code generators print SQL; teams that write leading commas can ask for them instead, and then commas that end a line are reported. A line holding nothing but a comma is left alone, and commas inside strings or comments are never considered.",
  bad: "SELECT id\n     , name\n     , email\nFROM users",
  good: "SELECT id,\n    name,\n    email\nFROM users",
  fixable: true,
  options: [
    {
      name: "comma_style",
      values: "trailing or leading; default trailing",
      description:
        "Where commas between list items go: at the end of a line, or at the start of the next.",
    },
  ],
  examples: [
    {
      options: { L008: { comma_style: "leading" } },
      bad: "SELECT id,\n    name\nFROM users",
      good: "SELECT id\n    , name\nFROM users",
    },
  ],
  check(ctx, report) {
    if (ctx.settings.L008.comma_style === "leading") checkLeadingStyle(ctx, report);
    else checkTrailingStyle(ctx, report);
  },
};

function checkTrailingStyle(ctx: LintContext, report: (finding: LintFinding) => void): void {
  const tokens = ctx.tokens;
  let atLineStart = true;
  let lastCode: Token | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) break;
    if (token.kind === "newline") {
      atLineStart = true;
      continue;
    }
    if (token.kind === "whitespace") continue;
    const leading = atLineStart && token.text === ",";
    atLineStart = false;
    const before = lastCode;
    if (isSignificant(token)) lastCode = token;
    if (!leading) continue;
    let j = i + 1;
    while (tokens[j]?.kind === "whitespace") j++;
    const after = tokens[j];
    if (after === undefined || after.kind === "newline") continue;
    report({
      line: token.line,
      column: token.column,
      message: "Leading comma found, but trailing comma style is preferred",
      suggestion: "Move comma to end of previous line",
      ...(before === undefined
        ? {}
        : {
            fix: [
              { start: before.end, end: before.end, text: "," },
              { start: token.start, end: after.start, text: "" },
            ],
          }),
    });
  }
}

function checkLeadingStyle(ctx: LintContext, report: (finding: LintFinding) => void): void {
  const tokens = ctx.tokens;
  let codeOnLine = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind === "newline") {
      codeOnLine = false;
      continue;
    }
    if (!isSignificant(token)) continue;
    const trailing = token.text === "," && codeOnLine;
    codeOnLine = true;
    if (!trailing) continue;
    // Only layout and comments may follow on the line, and another item must follow.
    let j = i + 1;
    let lineBreak = false;
    while (j < tokens.length && !isSignificant(tokens[j] as Token)) {
      if ((tokens[j] as Token).kind === "newline") lineBreak = true;
      j++;
    }
    const next = tokens[j];
    if (!lineBreak || next === undefined) continue;
    report({
      line: token.line,
      column: token.column,
      message: "Trailing comma found, but leading comma style is preferred",
      suggestion: "Move comma to the start of the next line",
      fix: [
        { start: token.start, end: token.end, text: "" },
        { start: next.start, end: next.start, text: ", " },
      ],
    });
  }
}
