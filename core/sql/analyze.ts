import type { SqlParseResult, SqlParser } from "../ports/sql-parser.js";
import { formatSql } from "./format.js";
import { toMetadataResult } from "./metadata.js";
import { fromParse, toParseResult } from "./parse.js";
import type { AnalyzeResult, LintResult, SecurityScanResult, ToolOutcome } from "./results.js";
import { describeSyntaxError } from "./syntax-error.js";
import type { Token } from "./token.js";
import { tokenize } from "./tokenizer.js";

/** The text analysers `analyze_sql` runs beside the parse (lint rules, injection scanner). */
export interface SqlTextAnalysers {
  lint(sql: string, tokens: readonly Token[]): LintResult;
  scan(sql: string, tokens: readonly Token[]): SecurityScanResult;
}

type SubTool = "validate" | "parse" | "metadata" | "security" | "lint" | "format";

/**
 * `analyze_sql`: validate, parse, metadata, security, lint and format in one report. The SQL is
 * parsed once (generic dialect) and tokenised once; format, security and lint work from the text
 * and succeed when parsing fails. A failed sub-tool's key is absent and its message is under
 * `errors` (present only then). A sub-tool that throws is reported the same way, so one bug
 * cannot take the whole report down.
 *
 * @example
 * analyzeSql(parser, "SELECT FROM", { lint: lintSql, scan: scanSql }).errors;
 * // { parse: "parse failed: line 1, column 12: unexpected end of input", metadata: "parse failed: …" }
 */
export function analyzeSql(
  parser: SqlParser,
  sql: string,
  analysers: SqlTextAnalysers,
): AnalyzeResult {
  const report: AnalyzeResult = {};
  const errors: NonNullable<AnalyzeResult["errors"]> = {};
  const run = <T>(name: SubTool, tool: () => ToolOutcome<T>, put: (value: T) => void) => {
    try {
      const outcome = tool();
      if (outcome.ok) put(outcome.result);
      else errors[name] = outcome.error;
    } catch (error) {
      errors[name] = `${name} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  let parsed: SqlParseResult | undefined;
  // The metadata part reads every statement's names.
  const parseOnce = () => (parsed ??= parser.parse(sql, "generic", { names: true }));
  let tokens: Token[] | undefined;
  const tokensOnce = () => (tokens ??= tokenize(sql));

  run(
    "validate",
    () => {
      const result = parseOnce();
      return {
        ok: true,
        result: result.ok
          ? { valid: true }
          : { valid: false, error: `invalid SQL: ${describeSyntaxError(result.error)}` },
      };
    },
    (v) => (report.validate = v),
  );
  run(
    "parse",
    () => fromParse(parseOnce(), toParseResult),
    (v) => (report.parse = v),
  );
  run(
    "metadata",
    () => fromParse(parseOnce(), toMetadataResult),
    (v) => (report.metadata = v),
  );
  run(
    "security",
    () => ({ ok: true, result: analysers.scan(sql, tokensOnce()) }),
    (v) => (report.security = v),
  );
  run(
    "lint",
    () => ({ ok: true, result: analysers.lint(sql, tokensOnce()) }),
    (v) => (report.lint = v),
  );
  run(
    "format",
    () => formatSql(sql, {}, tokensOnce()),
    (v) => (report.format = v),
  );
  if (Object.keys(errors).length > 0) report.errors = errors;
  return report;
}
