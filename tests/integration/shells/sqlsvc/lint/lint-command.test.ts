import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  runLintCommand,
  type LintCommand,
} from "../../../../../shells/sqlsvc/lint/lint-command.js";
import { expandTargets } from "../../../../../shells/sqlsvc/lint/lint-files.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sqlsvc-lint-"));
  await mkdir(join(dir, "q", "sub"), { recursive: true });
  await mkdir(join(dir, "node_modules", "x"), { recursive: true });
  await writeFile(join(dir, "q", "a.sql"), "select a  from t   \n");
  await writeFile(join(dir, "q", "sub", "b.sql"), "SELECT b FROM t\n");
  await writeFile(join(dir, "q", "notes.txt"), "select  nothing");
  await writeFile(join(dir, "node_modules", "x", "c.sql"), "select  c");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(partial: Partial<LintCommand>, progress = false) {
  let out = "";
  let err = "";
  const code = await runLintCommand(
    {
      mode: "lint",
      targets: ["q"],
      check: false,
      format: "text",
      configPath: undefined,
      overrides: {},
      jobs: 2,
      cwd: dir,
      version: "9.9.9",
      ...partial,
    },
    {
      out: (text) => (out += text),
      err: (text) => (err += text),
      progress,
      readStdin: () => Promise.resolve("select  1"),
    },
  );
  return { code, out, err };
}

describe("sqlsvc lint and fix over files (issue 13)", () => {
  it("expands directories to their *.sql files in name order, skipping node_modules", async () => {
    expect(await expandTargets(["q", "."], dir)).toEqual([
      "q/a.sql",
      "q/sub/b.sql",
      "q/a.sql",
      "q/sub/b.sql",
    ]);
  });

  it("lints in file order and exits 1 on violations, 0 when clean", async () => {
    const result = await run({});
    expect(result.code).toBe(1);
    expect(result.out.split("\n")[0]).toBe(
      "q/a.sql:1:1: L007 KeywordCase (warning) Keyword 'select' should be uppercase: 'SELECT'",
    );
    expect(result.out).not.toContain("b.sql");
    expect((await run({ targets: ["q/sub/b.sql"] })).code).toBe(0);
  });

  it("takes the nearest .sqlsvc.yaml, its ignore globs, and command-line overrides over it", async () => {
    await writeFile(
      join(dir, ".sqlsvc.yaml"),
      "rule_options:\n  L007: { keyword_case: lower }\nignore: ['q/sub/']\n",
    );
    const result = await run({});
    // lower-case keywords are right here; b.sql (upper case) is ignored, so not reported.
    expect(result.out).not.toContain("L007");
    expect(result.out).not.toContain("b.sql");
    expect((await run({ targets: ["q/sub/b.sql"] })).out).toBe("No violations in 0 files\n");
    const only = await run({ overrides: { rules: ["L001"] } });
    expect(only.out).toBe(
      "q/a.sql:1:17: L001 TrailingWhitespace (warning) Line has trailing whitespace\n" +
        "1 violation in 1 file (of 1), 1 fixable with sqlsvc fix\n",
    );
  });

  it("exits 2 naming the key for a bad configuration file, once", async () => {
    await writeFile(join(dir, "q", ".sqlsvc.yaml"), "rule_options:\n  L005: { max_length: 0 }\n");
    const result = await run({});
    expect(result.code).toBe(2);
    expect(result.err.match(/rule_options\.L005\.max_length: expected an integer/g)).toHaveLength(
      1,
    );
    const explicit = await run({ configPath: "q/.sqlsvc.yaml" });
    expect(explicit).toMatchObject({ code: 2, out: "" });
    expect(explicit.err).toMatch(/^sqlsvc: configuration error: .*max_length/);
  });

  it("fix --check reports what would change and writes nothing (exit 1)", async () => {
    const result = await run({ mode: "fix", check: true });
    expect(result).toMatchObject({
      code: 1,
      out: "q/a.sql: would fix 5 violations\nWould fix 5 violations in 1 file; nothing left\n",
    });
    expect(await readFile(join(dir, "q", "a.sql"), "utf8")).toBe("select a  from t   \n");
  });

  it("fix rewrites the files and exits 0 when nothing is left; a second run changes nothing", async () => {
    const first = await run({ mode: "fix" });
    expect(first).toMatchObject({
      code: 0,
      out: "q/a.sql: fixed 5 violations\nFixed 5 violations in 1 file; nothing left\n",
    });
    expect(await readFile(join(dir, "q", "a.sql"), "utf8")).toBe("SELECT a FROM t\n");
    expect(await run({ mode: "fix", check: true })).toMatchObject({
      code: 0,
      out: "Would fix 0 violations in 0 files; nothing left\n",
    });
  });

  it("fix exits 1 when violations no fix can remove are left", async () => {
    await writeFile(join(dir, "q", "a.sql"), "select a b from t\n");
    const result = await run({ mode: "fix" });
    expect(result.code).toBe(1);
    expect(result.out).toContain("L009 AliasingConsistency");
  });

  it("fix - prints the fixed SQL on stdout and the report on stderr", async () => {
    const result = await run({ mode: "fix", targets: ["-"] });
    expect(result).toMatchObject({
      code: 0,
      out: "SELECT 1",
      err: "-: fixed 2 violations\nFixed 2 violations in 1 file; nothing left\n",
    });
  });

  it("prints GitHub workflow annotations with escaped data", async () => {
    await writeFile(join(dir, "q", "a.sql"), "SELECT a,  b FROM t -- 100%\n");
    const result = await run({ format: "github" });
    expect(result.out).toBe(
      "::notice file=q/a.sql,line=1,col=10,title=L010 RedundantWhitespace::Multiple consecutive spaces found (Reduce to single space)\n",
    );
  });

  it("prints one SARIF 2.1.0 log with the rules and a result per violation", async () => {
    const result = await run({ format: "sarif" });
    const log = JSON.parse(result.out) as {
      version: string;
      runs: {
        tool: { driver: { name: string; version: string; rules: { id: string }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: object } }[];
        }[];
      }[];
    };
    expect(log.version).toBe("2.1.0");
    const run0 = log.runs[0];
    expect(run0?.tool.driver).toMatchObject({ name: "sqlsvc", version: "9.9.9" });
    expect(run0?.tool.driver.rules.map((r) => r.id).length).toBeGreaterThanOrEqual(30);
    expect(run0?.results.map((r) => `${r.ruleId}:${r.level}`)).toEqual([
      "L007:warning",
      "L010:note",
      "L007:warning",
      "L001:warning",
      "L010:note",
    ]);
    expect(run0?.results[0]).toMatchObject({
      ruleIndex: 6,
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "q/a.sql" },
            region: { startLine: 1, startColumn: 1 },
          },
        },
      ],
    });
  });

  it("prints JSON per file with the fix counts", async () => {
    const result = await run({ mode: "fix", check: true, format: "json", targets: ["q/a.sql"] });
    expect(JSON.parse(result.out)).toMatchObject({
      file: "q/a.sql",
      violation_count: 0,
      changed: true,
      fixed_count: 5,
    });
  });

  it("shows a progress count on stderr when asked (a terminal), ending with a line break", async () => {
    const result = await run({ targets: ["q/a.sql", "q/sub/b.sql"] }, true);
    expect(result.err).toBe("\rsqlsvc: linted 2/2 files\n");
    expect((await run({ targets: ["q/a.sql", "q/sub/b.sql"] })).err).toBe("");
  });

  it("lints a thousand files with a bounded window, in order", async () => {
    await mkdir(join(dir, "many"));
    for (let i = 0; i < 1000; i++) {
      await writeFile(
        join(dir, "many", `f${String(i).padStart(4, "0")}.sql`),
        i % 2 ? "select 1\n" : "SELECT 1\n",
      );
    }
    const result = await run({ targets: ["many"], jobs: 8, format: "json" });
    const files = result.out
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { file: string }).file);
    expect(files).toHaveLength(1000);
    expect(files).toEqual([...files].sort());
    expect(result.code).toBe(1);
  });
});
