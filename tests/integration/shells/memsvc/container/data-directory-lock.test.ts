import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  LOCK_FILE,
  lockDataDirectory,
} from "../../../../../shells/memsvc/container/data-directory-lock.js";
import {
  assertStoreBesideSnapshot,
  CHROMA_DATABASE_FILE,
} from "../../../../../shells/memsvc/container/data-directory-check.js";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "memsvc-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDirectory", () => {
  it("creates the directory and a lock file naming this process, removed on release", () => {
    const dir = join(tempDir(), "chroma");
    const lock = lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("takes over a stale lock whose process is gone", () => {
    const dir = tempDir();
    // Pid 2^22 + 1 is above Linux's pid_max default and never runs.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 4_194_305 }));
    const lock = lockDataDirectory(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
  });

  it("takes over an unreadable lock file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), "garbage");
    lockDataDirectory(dir).release();
  });

  it("names the path in a config error when the data directory is a file", () => {
    const file = join(tempDir(), "chroma");
    writeFileSync(file, "not a directory");
    expect(() => lockDataDirectory(file)).toThrow(
      expect.objectContaining({
        code: "config_invalid",
        message: expect.stringContaining(`the data directory ${file} is not a directory`),
      }),
    );
  });
});

describe("assertStoreBesideSnapshot", () => {
  it("refuses a snapshot without the Chroma store beside it, naming both and what to do", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "engine.snapshot"), "a snapshot");
    expect(() => assertStoreBesideSnapshot(dir, "engine.snapshot")).toThrow(
      expect.objectContaining({
        code: "config_invalid",
        message: expect.stringMatching(
          /holds an engine snapshot \(engine\.snapshot\) but no Chroma store \(chroma\.sqlite3\).*Restore/,
        ),
      }),
    );
    writeFileSync(join(dir, CHROMA_DATABASE_FILE), "");
    expect(() => assertStoreBesideSnapshot(dir, "engine.snapshot")).not.toThrow();
  });

  it("accepts a fresh directory (neither file) and a store without a snapshot", () => {
    const dir = tempDir();
    expect(() => assertStoreBesideSnapshot(dir, "engine.snapshot")).not.toThrow();
    writeFileSync(join(dir, CHROMA_DATABASE_FILE), "");
    expect(() => assertStoreBesideSnapshot(dir, "engine.snapshot")).not.toThrow();
  });
});
