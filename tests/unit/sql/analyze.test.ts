import { beforeAll, describe, expect, it } from "vitest";
import type { RoutingSqlParser } from "../../../adapters/sql/index.js";
import type { SqlParser } from "../../../core/ports/sql-parser.js";
import { analyzeSql, type SqlTextAnalysers } from "../../../core/sql/analyze.js";
import type { LintResult, SecurityScanResult } from "../../../core/sql/results.js";
import { loadedParser } from "./loaded-parser.js";

const CLEAN: SecurityScanResult = {
  is_clean: true,
  has_critical: false,
  has_high: false,
  total_count: 0,
  critical_count: 0,
  high_count: 0,
  medium_count: 0,
  low_count: 0,
  findings: [],
};
const NO_LINT: LintResult = { violation_count: 0, violations: [] };
const STUBS: SqlTextAnalysers = { lint: () => NO_LINT, scan: () => CLEAN };

let parser: RoutingSqlParser;
beforeAll(async () => {
  parser = await loadedParser();
});

describe("analyzeSql", () => {
  it("reports all six sub-tools and no errors for valid SQL", () => {
    expect(analyzeSql(parser, "SELECT id FROM users", STUBS)).toEqual({
      validate: { valid: true },
      parse: { statement_count: 1, statement_types: ["*ast.SelectStatement"] },
      metadata: { tables: ["users"], columns: ["id"], functions: [] },
      security: CLEAN,
      lint: NO_LINT,
      format: {
        formatted_sql: "SELECT id\nFROM users",
        options: { indent_size: 2, uppercase_keywords: false, add_semicolon: false },
      },
    });
  });

  it("keeps format, security and lint when parsing fails and lists the failures under errors", () => {
    const report = analyzeSql(parser, "SELECT FROM", STUBS);
    expect(report.validate).toEqual({
      valid: false,
      error: "invalid SQL: line 1, column 12: unexpected end of input",
    });
    expect(report.errors).toEqual({
      parse: "parse failed: line 1, column 12: unexpected end of input",
      metadata: "parse failed: line 1, column 12: unexpected end of input",
    });
    expect(report).not.toHaveProperty("parse");
    expect(report).not.toHaveProperty("metadata");
    expect(report.format?.formatted_sql).toBe("SELECT\nFROM");
    expect(report.security).toEqual(CLEAN);
    expect(report.lint).toEqual(NO_LINT);
  });

  it("parses once and tokenises once for all sub-tools", () => {
    let parses = 0;
    const counting: SqlParser = {
      load: () => parser.load(),
      parse: (sql, dialect) => {
        parses++;
        return parser.parse(sql, dialect);
      },
    };
    const seen = new Set<unknown>();
    const analysers: SqlTextAnalysers = {
      lint: (_sql, tokens) => (seen.add(tokens), NO_LINT),
      scan: (_sql, tokens) => (seen.add(tokens), CLEAN),
    };
    analyzeSql(counting, "SELECT a FROM t", analysers);
    expect(parses).toBe(1);
    expect(seen.size).toBe(1);
  });

  it("reports a sub-tool that throws under errors and keeps the others", () => {
    const broken: SqlTextAnalysers = {
      lint: () => {
        throw new Error("rule exploded");
      },
      scan: () => CLEAN,
    };
    const report = analyzeSql(parser, "SELECT 1", broken);
    expect(report.errors).toEqual({ lint: "lint failed: rule exploded" });
    expect(report).not.toHaveProperty("lint");
    expect(report.validate).toEqual({ valid: true });
  });

  it("reports a format failure under errors for text it cannot tokenise", () => {
    const report = analyzeSql(parser, "SELECT 'open", STUBS);
    expect(report.errors?.format).toBe("format failed: line 1, column 8: unterminated string");
    expect(report.validate?.valid).toBe(false);
  });
});
