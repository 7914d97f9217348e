import { describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../../core/errors.js";
import {
  DEFAULT_LINT_SETTINGS,
  lintSql,
  resolveLintSettings,
  selectLintRules,
} from "../../../../core/sql/lint/index.js";

function invalid(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isAgentServicesError(error, "invalid_input")) return error.message;
    throw error;
  }
  throw new Error("expected invalid_input");
}

describe("lint options (issue 13)", () => {
  it("leaves the seed's behaviour unchanged when no option is given", () => {
    const sql = "select a  b\n\n\nfrom t   \n     , x";
    expect(lintSql(sql, {})).toEqual(lintSql(sql));
    expect(resolveLintSettings()).toEqual(DEFAULT_LINT_SETTINGS);
  });

  it("selects rules by code or name, in any letter case, minus the excluded ones", () => {
    expect(selectLintRules({ rules: ["l001", "keywordCase", "L010"] }).map((r) => r.code)).toEqual([
      "L001",
      "L007",
      "L010",
    ]);
    expect(
      selectLintRules({ rules: ["L001", "L007"], exclude_rules: ["KeywordCase"] }).map(
        (r) => r.code,
      ),
    ).toEqual(["L001"]);
    expect(selectLintRules({ exclude_rules: [] })).toHaveLength(10);
  });

  it("rejects an unknown rule naming the key and the value", () => {
    expect(invalid(() => lintSql("SELECT 1", { rules: ["L999"] }))).toMatch(
      /^rules: unknown rule 'L999'/,
    );
    expect(invalid(() => lintSql("SELECT 1", { exclude_rules: ["Nope"] }))).toMatch(
      /^exclude_rules: unknown rule 'Nope'/,
    );
  });

  it("rejects numeric settings out of range naming the key", () => {
    expect(invalid(() => resolveLintSettings({ L005: { max_length: 0 } }))).toBe(
      "rule_options.L005.max_length: expected an integer from 1 to 100000, got 0",
    );
    expect(invalid(() => resolveLintSettings({ L004: { indent_size: 2.5 } }))).toMatch(
      /^rule_options\.L004\.indent_size: /,
    );
  });

  it("L004 counts a tab as indent_size spaces and allows max_depth levels", () => {
    const sql = "SELECT\n\t\t\tx";
    expect(
      lintSql(sql, { rule_options: { L004: { indent_size: 2, max_depth: 2 } } }).violations,
    ).toMatchObject([
      { rule: "L004", message: "Indentation depth exceeds maximum: 3 levels (max 2)" },
    ]);
    expect(lintSql(sql, { rule_options: { L004: { max_depth: 3 } } }).violation_count).toBe(0);
  });

  it("L005 uses max_length for the limit, the column and the suggestion", () => {
    const result = lintSql("SELECT abcdefghij", { rule_options: { L005: { max_length: 10 } } });
    expect(result.violations).toMatchObject([
      {
        rule: "L005",
        column: 11,
        suggestion: "Split this line into multiple lines (current: 17 chars, max: 10)",
      },
    ]);
  });

  it("L007 checks lower case, or the case of the first keyword", () => {
    const lower = { rule_options: { L007: { keyword_case: "lower" as const } } };
    expect(lintSql("select a FROM t", lower).violations).toMatchObject([
      { rule: "L007", column: 10, message: "Keyword 'FROM' should be lowercase: 'from'" },
    ]);
    const consistent = { rule_options: { L007: { keyword_case: "consistent" as const } } };
    expect(lintSql("select a from t", consistent).violation_count).toBe(0);
    expect(lintSql("SELECT a FROM t", consistent).violation_count).toBe(0);
    expect(lintSql("SELECT a from t", consistent).violations).toMatchObject([{ column: 10 }]);
  });

  it("L008 with leading commas reports a comma that ends a line, not one that begins it", () => {
    const leading = { rule_options: { L008: { comma_style: "leading" as const } } };
    expect(lintSql("SELECT a,\n  b\nFROM t", leading).violations).toMatchObject([
      {
        rule: "L008",
        line: 1,
        column: 9,
        message: "Trailing comma found, but leading comma style is preferred",
      },
    ]);
    expect(lintSql("SELECT a\n  , b\nFROM t", leading).violation_count).toBe(0);
    expect(lintSql("SELECT a, b FROM t", leading).violation_count).toBe(0);
  });

  it("L009 can require AS for table aliases and stop requiring it for column aliases", () => {
    const tables = { rule_options: { L009: { require_table_as: true } } };
    expect(
      lintSql("SELECT u.id FROM users u JOIN orders AS o ON u.id = o.uid", tables).violations,
    ).toMatchObject([
      { rule: "L009", column: 24, message: "Table alias 'u' is missing the AS keyword" },
    ]);
    const columns = { rule_options: { L009: { require_column_as: false } } };
    expect(lintSql("SELECT a b FROM t", columns).violation_count).toBe(0);
    expect(lintSql("SELECT a b FROM t").violation_count).toBe(1);
  });
});
