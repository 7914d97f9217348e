import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../dist/shells/sqlsvc/cli/sqlsvc.js", import.meta.url));

function run(
  args: string[],
  stdin: string | Buffer = "",
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("sqlsvc (the SQL tools on files)", () => {
  let dir: string;
  let messy: string;
  let broken: string;
  let clean: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "sqlsvc-cli-"));
    messy = join(dir, "messy.sql");
    broken = join(dir, "broken.sql");
    clean = join(dir, "clean.sql");
    await writeFile(messy, "select id from users   \nwhere name = '' OR 1=1\n");
    await writeFile(broken, "SELECT FROM WHERE");
    await writeFile(clean, "SELECT id FROM users WHERE id = 1;\n");
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("validates files and exits 1 naming the invalid one", async () => {
    const result = await run(["validate", clean, broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^${broken.replace(/[.\\/]/g, "\\$&")}: .*line 1, column \\d+`),
    );
    expect(result.stdout).not.toContain(clean);
  });

  it("exits 0 when every file is valid for the dialect", async () => {
    expect((await run(["validate", "--dialect", "postgresql", clean])).code).toBe(0);
  });

  it("lints with file:line:column positions and exits 1 on violations", async () => {
    const result = await run(["lint", messy]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${messy}:1:21: L001 TrailingWhitespace`);
  });

  it("scans for injection and exits 1 on a high-severity finding", async () => {
    const result = await run(["scan", messy]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/TAUTOLOGY/);
    expect((await run(["scan", clean])).code).toBe(0);
  });

  it("formats stdin to stdout with the options given", async () => {
    const result = await run(
      ["format", "--upper", "--semicolon", "-"],
      "select a,b from t where a=1",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^SELECT[\s\S]*FROM[\s\S]*;\n$/);
  });

  it("rewrites files in place with format --write", async () => {
    const file = join(dir, "rewrite.sql");
    await writeFile(file, "select a from t");
    expect((await run(["format", "--write", file])).code).toBe(0);
    expect(await readFile(file, "utf8")).toMatch(/^select a\s+from t\n$/);
  });

  it("prints one JSON line per file with --json", async () => {
    const result = await run(["validate", "--json", clean]);
    expect(JSON.parse(result.stdout)).toEqual({ file: clean, valid: true });
  });

  it("rejects an unknown command or option with usage on stderr and exit code 2", async () => {
    for (const args of [
      ["explode", clean],
      ["lint", "--bogus", clean],
      ["lint"],
      ["validate", "--dialect", "cobol", clean],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("Usage: sqlsvc");
    }
  });

  it("fixes files in place, checks without writing, and honours a project .sqlsvc.yaml (issue 13)", async () => {
    const project = join(dir, "project");
    await mkdir(join(project, "q"), { recursive: true });
    await writeFile(
      join(project, ".sqlsvc.yaml"),
      "rule_options:\n  L007: { keyword_case: lower }\n",
    );
    const file = join(project, "q", "a.sql");
    await writeFile(file, "SELECT a  FROM t   \n");
    const check = await run(["fix", "--check", project]);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(
      `${file}: would fix 5 violations\nWould fix 5 violations in 1 file; nothing left\n`,
    );
    expect(await readFile(file, "utf8")).toBe("SELECT a  FROM t   \n");
    expect((await run(["fix", project])).code).toBe(0);
    expect(await readFile(file, "utf8")).toBe("select a from t\n");
    expect((await run(["lint", "--format", "github", project])).code).toBe(0);
  });

  it("prints GitHub annotations and a SARIF log for CI", async () => {
    const github = await run(["lint", "--format", "github", "--rules", "L001", messy]);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(
      /^::warning file=.*messy\.sql,line=1,col=21,title=L001 TrailingWhitespace::/,
    );
    const sarif = await run(["lint", "--format", "sarif", messy]);
    expect(JSON.parse(sarif.stdout)).toMatchObject({ version: "2.1.0" });
  });

  it("rejects fix and lint options on other commands, and unknown rules, with exit code 2", async () => {
    for (const args of [
      ["validate", "--check", clean],
      ["scan", "--rules", "L001", clean],
      ["lint", "--rules", "L099", clean],
      ["lint", "--format", "xml", clean],
    ]) {
      const result = await run(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: sqlsvc");
    }
  });

  it("exits 1 with a message for a file it cannot read", async () => {
    const result = await run(["lint", join(dir, "missing.sql")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `sqlsvc: ${join(dir, "missing.sql")}: cannot read: no such file or directory (ENOENT)\n`,
    );
  });

  it("says what is missing or misspelt in one line and where the help is (issue 24)", async () => {
    const none = await run([]);
    expect([none.code, none.stderr.split("\n")[0]]).toEqual([
      2,
      "sqlsvc: no command given (validate, lint, fix, scan, format, rules, dialects)",
    ]);
    const misspelt = await run(["lint", "--dialekt", "postgres", clean]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toBe(
      "sqlsvc: unknown option --dialekt; did you mean --dialect?\n" +
        "Usage: sqlsvc <command> [options] FILE|DIR...\n" +
        "Run sqlsvc --help for the commands and options.\n",
    );
  });

  describe("at SQLFluff's ergonomics (issue 25)", () => {
    let tree: string;
    beforeAll(async () => {
      tree = join(dir, "tree");
      await mkdir(join(tree, "sub"), { recursive: true });
      await writeFile(join(tree, "ok.sql"), "SELECT id FROM users;\n");
      await writeFile(join(tree, "sub", "open.sql"), "SELECT 'never closed FROM t\n");
      await writeFile(join(tree, "sub", "bad.sql"), "SELECT FROM WHERE\n");
    });

    it("validates and scans directories instead of failing with EISDIR", async () => {
      const validate = await run(["validate", tree]);
      expect(validate.code).toBe(1);
      expect(validate.stderr).toBe("");
      expect(validate.stdout).toContain(join(tree, "sub", "bad.sql"));
      expect(validate.stdout.trimEnd().split("\n").at(-1)).toBe("2 of 3 files invalid");
      const scan = await run(["scan", tree]);
      expect(scan).toMatchObject({ code: 0, stderr: "" });
      expect(scan.stdout).toBe("No findings in 3 files\n");
    });

    it("reports files that do not lex or parse as violations, with a summary and exit 1", async () => {
      const result = await run(["lint", tree]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `${join(tree, "sub", "open.sql")}:1:8: LXR LexError (error) String literal is never closed`,
      );
      expect(result.stdout).toMatch(
        new RegExp(`${join(tree, "sub", "bad.sql")}:1:\\d+: PRS ParseError`),
      );
      expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("2 violations in 2 files (of 3)");
      const quick = await run(["lint", "--no-parse", tree]);
      expect(quick.stdout).not.toContain("PRS");
    });

    it("colours only when asked or on a terminal, and never with NO_COLOR", async () => {
      const plain = await run(["lint", messy]);
      expect(plain.stdout).not.toContain("\u001b[");
      const forced = await run(["lint", "--color", messy]);
      expect(forced.stdout).toContain("\u001b[");
      expect((await run(["lint", "--color", "--no-color", messy])).stdout).not.toContain("\u001b[");
      expect((await run(["lint", messy], "", { NO_COLOR: "1" })).stdout).not.toContain("\u001b[");
    });

    it("exits quietly with 141 when the reader closes the pipe", async () => {
      const child = spawn(process.execPath, [BIN, "rules"], { stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      child.stdout.destroy();
      const code = await new Promise((resolve) => child.once("close", resolve));
      expect(stderr).not.toContain("EPIPE");
      expect([0, 141]).toContain(code);
    });

    it("counts the files it could not read in validate's and scan's summary, as lint does", async () => {
      const missing = join(dir, "missing.sql");
      const validated = await run(["validate", clean, missing]);
      expect(validated.code).toBe(1);
      expect(validated.stdout.trimEnd().split("\n").at(-1)).toBe(
        "1 file valid; 1 file could not be read",
      );
      const scanned = await run(["scan", clean, missing]);
      expect(scanned.stdout.trimEnd().split("\n").at(-1)).toBe(
        "No findings in 1 file; 1 file could not be read",
      );
    });

    it("refuses a file that is not UTF-8 instead of writing U+FFFD into it", async () => {
      // Latin-1 'café' with trailing blanks: fix used to rewrite the é as EF BF BD.
      const file = join(dir, "latin1.sql");
      const bytes = Buffer.from("SELECT 'caf\xe9'   \nFROM t;\n", "latin1");
      await writeFile(file, bytes);
      const reason = `${file}: cannot read: not UTF-8 text (byte 0xE9 at line 1, column 12)`;
      for (const args of [["fix"], ["format", "--write"], ["lint"], ["validate"], ["scan"]]) {
        const result = await run([...args, file]);
        expect(result.code, args.join(" ")).toBe(1);
        expect(result.stderr, args.join(" ")).toContain(reason);
        expect(await readFile(file), args.join(" ")).toEqual(bytes);
      }
      for (const command of ["fix", "format"]) {
        const piped = await run([command, "-"], bytes);
        expect(piped.code, command).toBe(1);
        expect(piped.stderr, command).toContain("stdin: cannot read: not UTF-8 text (byte 0xE9");
        expect(piped.stdout, command).not.toContain("\ufffd");
      }
      // A BOM and a literal U+FFFD are UTF-8 and stay as they are.
      const marked = join(dir, "marked.sql");
      await writeFile(marked, "\ufeffSELECT '\ufffd'   \nFROM t;\n");
      expect((await run(["fix", marked])).code).toBe(0);
      expect(await readFile(marked, "utf8")).toBe("\ufeffSELECT '\ufffd'\nFROM t;\n");
    });

    it("writes the whole report into a pipe its reader empties slowly", async () => {
      // 3,000 violations, about 200 KiB of report: more than a pipe holds (64 KiB). The reader
      // starts only after a second; the CLI used to exit with the rest still queued and lose it.
      const file = join(dir, "long-report.sql");
      await writeFile(file, "SELECT 1;   \n".repeat(3000));
      const child = spawn(process.execPath, [BIN, "lint", "--rules", "L001", file], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      const closed = new Promise((resolve) => child.once("close", resolve));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      expect(await closed).toBe(1);
      expect(stdout.length).toBeGreaterThan(65_536);
      expect(stdout.split("\n").filter((line) => line.includes(": L001 "))).toHaveLength(3000);
      expect(stdout.trimEnd().split("\n").at(-1)).toBe(
        "3000 violations in 1 file (of 1), 3000 fixable with sqlsvc fix",
      );
    });

    it("lists the rules and the dialects, and takes dialect aliases", async () => {
      const rules = await run(["rules"]);
      expect(rules.code).toBe(0);
      expect(rules.stdout).toMatch(/^L022 SelectStar .*anti-pattern.*AM04$/m);
      const dialects = await run(["dialects", "--json"]);
      expect(dialects.stdout.split("\n")).toContain(
        JSON.stringify({ name: "sqlserver", aliases: ["tsql", "t-sql", "mssql", "sql-server"] }),
      );
      for (const name of ["postgres", "tsql", "mssql"])
        expect((await run(["validate", "--dialect", name, clean])).code, name).toBe(0);
    });

    it("runs every rule with --rules all and a SQLFluff code in --exclude-rules", async () => {
      const file = join(dir, "danger.sql");
      await writeFile(file, "DELETE FROM users;\nSELECT * FROM t;\n");
      const all = await run(["lint", "--rules", "all", "--exclude-rules", "AM04", file]);
      expect(all.code).toBe(1);
      expect(all.stdout).toContain("L011 DeleteWithoutWhere");
      expect(all.stdout).not.toContain("L022");
    });
  });
});
