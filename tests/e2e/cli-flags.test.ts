import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = (path: string) => fileURLToPath(new URL(`../../dist/shells/${path}`, import.meta.url));

/** The three bins, with the first word of their usage text (issue 9: one spelling of the flags). */
const CLIS = [
  ["memsvc", bin("memsvc/cli/memsvc.js"), "Usage: memsvc"],
  ["sqlsvc-mcp", bin("sqlsvc/cli/sqlsvc-mcp.js"), "Usage: sqlsvc-mcp"],
  ["sqlsvc", bin("sqlsvc/cli/sqlsvc.js"), "Usage: sqlsvc"],
] as const;

function run(path: string, args: string[]) {
  const result = spawnSync(process.execPath, [path, ...args], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the command-line flags every bin shares", () => {
  it.each(CLIS)("%s prints its usage for -h and --help, exit 0", (_name, path, usage) => {
    for (const flag of ["-h", "--help"]) {
      const result = run(path, [flag]);
      expect([result.code, result.stderr]).toEqual([0, ""]);
      expect(result.stdout.startsWith(usage)).toBe(true);
    }
  });

  it.each(CLIS)("%s prints its version for -v and --version, exit 0", (_name, path) => {
    for (const flag of ["-v", "--version"]) {
      const result = run(path, [flag]);
      expect([result.code, result.stderr]).toEqual([0, ""]);
      expect(result.stdout).toMatch(/^(?:[a-z-]+ )?\d+\.\d+\.\d+\n$/);
    }
  });

  it.each(CLIS)(
    "%s answers an unknown flag with its usage on stderr, exit 2",
    (_name, path, usage) => {
      const result = run(path, ["--no-such-flag"]);
      expect([result.code, result.stdout]).toEqual([2, ""]);
      expect(result.stderr).toContain(usage);
    },
  );
});
