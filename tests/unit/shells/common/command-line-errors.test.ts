import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { commandLineErrorText } from "../../../../shells/common/command-line.js";
import { fileErrorReason, fileErrorText } from "../../../../shells/common/file-error.js";

function parseError(args: string[]): Error {
  try {
    parseArgs({ args, options: { project: { type: "string" }, limit: { type: "string" } } });
  } catch (error) {
    return error as Error;
  }
  throw new Error("parseArgs accepted the arguments");
}

describe("command line error texts (issue 24)", () => {
  it("names an unknown option in one line and suggests the option it most likely meant", () => {
    expect(commandLineErrorText(parseError(["--projct", "x"]), ["project", "limit"])).toBe(
      "unknown option --projct; did you mean --project?",
    );
    expect(commandLineErrorText(parseError(["--colour"]), ["project", "limit"])).toBe(
      "unknown option --colour",
    );
    expect(commandLineErrorText(parseError(["-z"]), ["project"])).toBe("unknown option -z");
  });

  it("keeps Node's message for the other command line errors", () => {
    const error = parseError(["--limit"]);
    expect(commandLineErrorText(error, ["limit"])).toBe(error.message);
  });

  it("says why a file could not be read in words, the errno after, without Node's absolute path", () => {
    const error = Object.assign(
      new Error("ENOENT: no such file or directory, open '/home/me/q/missing.sql'"),
      { code: "ENOENT" },
    );
    expect(fileErrorText("q/missing.sql", error)).toBe(
      "q/missing.sql: cannot read: no such file or directory (ENOENT)",
    );
    expect(fileErrorText("-", new Error("stream closed"))).toBe(
      "stdin: cannot read: stream closed",
    );
    // memsvc's --file errors say the same words after its own prefix.
    expect(fileErrorReason(new Error("EACCES: permission denied, open '/home/me/x.ndjson'"))).toBe(
      "permission denied (EACCES)",
    );
  });
});
