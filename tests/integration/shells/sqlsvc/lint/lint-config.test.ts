import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAgentServicesError } from "../../../../../core/errors.js";
import { ignoreGlobs } from "../../../../../shells/sqlsvc/lint/ignore-globs.js";
import {
  LintConfigFinder,
  parseLintConfig,
} from "../../../../../shells/sqlsvc/lint/lint-config.js";

function problems(text: string): string[] {
  try {
    parseLintConfig(text, "/p/.sqlsvc.yaml");
  } catch (error) {
    if (isAgentServicesError(error, "config_invalid")) return error.message.split("\n");
    throw error;
  }
  throw new Error("expected config_invalid");
}

describe(".sqlsvc.yaml (issue 13)", () => {
  it("reads rules, exclusions, dialect, rule settings and ignore globs", () => {
    const config = parseLintConfig(
      [
        "rules: [L001, KeywordCase, L010]",
        "exclude_rules: L010",
        "dialect: MySQL",
        "rule_options:",
        "  L004: { indent_size: 2, max_depth: 6 }",
        "  L005: { max_length: 120 }",
        "  L007: { keyword_case: lower }",
        "  L008: { comma_style: leading }",
        "  L009: { require_table_as: true, require_column_as: false }",
        "ignore: ['vendor/', '*.gen.sql']",
      ].join("\n"),
      "/p/.sqlsvc.yaml",
    );
    expect(config.options).toEqual({
      rules: ["L001", "KeywordCase", "L010"],
      exclude_rules: ["L010"],
      dialect: "mysql",
      rule_options: {
        L004: { indent_size: 2, max_depth: 6 },
        L005: { max_length: 120 },
        L007: { keyword_case: "lower" },
        L008: { comma_style: "leading" },
        L009: { require_table_as: true, require_column_as: false },
      },
    });
    expect(config.dir).toBe("/p");
    expect(config.ignore.patterns).toEqual(["vendor/", "*.gen.sql"]);
  });

  it("treats an empty file as the defaults", () => {
    expect(parseLintConfig("", "/p/.sqlsvc.yaml").options).toEqual({});
  });

  it("reports every problem at once, each naming its key", () => {
    expect(
      problems(
        [
          "rules: [L001, L099]",
          "dialect: cobol",
          "rule_options:",
          "  L005: { max_length: abc }",
          "  L007: { keyword_case: title }",
          "  L001: {}",
          "ignores: []",
        ].join("\n"),
      ),
    ).toEqual([
      '/p/.sqlsvc.yaml: rules.1: unknown rule "L099": expected a rule code (L001-L038), name (KeywordCase), SQLFluff code (CP01), category (safety) or all',
      '/p/.sqlsvc.yaml: dialect: expected one of generic, mysql, postgresql, sqlite, sqlserver, oracle, snowflake (any letter case), got "cobol"',
      '/p/.sqlsvc.yaml: rule_options.L005.max_length: expected an integer from 1 to 100000, got "abc"',
      '/p/.sqlsvc.yaml: rule_options.L007.keyword_case: expected one of upper, lower, consistent, got "title"',
      '/p/.sqlsvc.yaml: rule_options.L001: unknown key "L001": settings exist for L004, L005, L007, L008 and L009',
      "/p/.sqlsvc.yaml: ignores: unknown key (expected rules, exclude_rules, dialect, rule_options or ignore)",
    ]);
  });

  it("names the file for text that is not YAML or not a mapping", () => {
    expect(problems("rules: [L001")[0]).toMatch(/^\/p\/\.sqlsvc\.yaml: not valid YAML: /);
    expect(problems("- L001")).toEqual([
      "/p/.sqlsvc.yaml: (top level): expected a mapping of settings",
    ]);
  });
});

describe("ignore globs (gitignore rules, from the ignore package; issue 25)", () => {
  it.each([
    ["vendor/", "vendor/a/b.sql", true],
    ["vendor/", "src/vendor/a.sql", true],
    ["/vendor/", "src/vendor/a.sql", false],
    ["*.gen.sql", "a/b/c.gen.sql", true],
    ["migrations/**", "migrations/2024/01.sql", true],
    ["migrations/*.sql", "migrations/2024/01.sql", false],
    ["**/fixtures/*.sql", "x/y/fixtures/a.sql", true],
    ["a?.sql", "q/ab.sql", true],
    ["a.sql", "q/axsql", false],
    ["migrations/[ab]*.sql", "migrations/a1.sql", true],
    ["migrations/[ab]*.sql", "migrations/c1.sql", false],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(ignoreGlobs([glob]).ignores(path)).toBe(expected);
  });

  it("takes a match back with !, the last matching pattern winning", () => {
    const globs = ignoreGlobs(["*.gen.sql", "!keep.gen.sql"]);
    expect(globs.ignores("a/drop.gen.sql")).toBe(true);
    expect(globs.ignores("a/keep.gen.sql")).toBe(false);
  });

  it("refuses {a,b} braces, which gitignore lacks, naming the entry", () => {
    expect(problems("ignore: ['ok/', '{a,b}.sql']")).toEqual([
      "/p/.sqlsvc.yaml: ignore.1: braces are not gitignore syntax: write one pattern per alternative",
    ]);
  });
});

describe("LintConfigFinder", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sqlsvc-config-"));
    await mkdir(join(dir, "a", "b", "c"), { recursive: true });
    await writeFile(join(dir, ".sqlsvc.yaml"), "rules: [L001]\nignore: [a/skip.sql]\n");
    await writeFile(join(dir, "a", "b", ".sqlsvc.yaml"), "rules: [L007]\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("takes the nearest file walking up from each linted file", async () => {
    const finder = new LintConfigFinder(undefined, dir);
    expect((await finder.forFile("a/x.sql")).options.rules).toEqual(["L001"]);
    expect((await finder.forFile("a/b/c/y.sql")).options.rules).toEqual(["L007"]);
    expect((await finder.forFile(join(dir, "a", "b", "z.sql"))).source).toBe(
      join(dir, "a", "b", ".sqlsvc.yaml"),
    );
  });

  it("uses --config for every file when given, and fails for a missing one", async () => {
    const finder = new LintConfigFinder("a/b/.sqlsvc.yaml", dir);
    expect((await finder.forFile("a/x.sql")).options.rules).toEqual(["L007"]);
    await expect(new LintConfigFinder("nope.yaml", dir).check()).rejects.toThrow(/cannot read/);
  });

  it("applies ignore globs relative to the configuration's directory", async () => {
    const finder = new LintConfigFinder(undefined, dir);
    const config = await finder.forFile("a/skip.sql");
    expect(LintConfigFinder.ignores(config, "a/skip.sql", dir)).toBe(true);
    expect(LintConfigFinder.ignores(config, "a/keep.sql", dir)).toBe(false);
  });
});
