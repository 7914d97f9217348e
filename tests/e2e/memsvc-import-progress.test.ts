import { spawn, spawnSync } from "node:child_process";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanupMemsvc,
  makeTempDir,
  MEMSVC_BIN,
  startMemsvc,
  type MemsvcProcess,
} from "../support/spawn-memsvc.js";
import { runInTerminal, terminalAvailable } from "../support/run-in-terminal.js";

let service: MemsvcProcess;

beforeAll(async () => {
  service = await startMemsvc();
}, 60_000);
afterAll(cleanupMemsvc);

/** The client's environment: the caller's without MEMSVC_*, pointed at the test service. */
function clientEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("MEMSVC_")) env[key] = value;
  return { ...env, MEMSVC_URL: service.baseUrl, NO_COLOR: "1" };
}

const ndjson = (name: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) =>
    JSON.stringify({ content: `${name} note ${from + i}`, scope: "permanent" }),
  ).join("\n") + "\n";

/**
 * A named pipe the import reads as its `--file`: half the lines at once, the rest 0.7 s later
 * (the progress line is drawn at most every 0.5 s, so the second half comes after one is due).
 */
async function slowFile(name: string): Promise<{ path: string; feed: () => Promise<void> }> {
  const path = join(makeTempDir(), "slow.ndjson");
  expect(spawnSync("mkfifo", [path]).status).toBe(0);
  return {
    path,
    feed: async () => {
      const fifo = await open(path, "w"); // waits until the import opens it
      await fifo.write(ndjson(name, 0, 3));
      await new Promise((resolve) => setTimeout(resolve, 700));
      await fifo.write(ndjson(name, 3, 6));
      await fifo.close();
    },
  };
}

describe("memsvc import's progress (issue 24)", () => {
  it.skipIf(!terminalAvailable())(
    "shows the lines sent so far on a terminal, then clears it for the result",
    async () => {
      const { path, feed } = await slowFile("Terminal");
      const run = runInTerminal([MEMSVC_BIN, "import", "--file", path], clientEnv());
      await feed();
      expect(await run.ended).toBe(0);
      const shown = run.output().replace(/^TERMINAL_PID=\d+\r\n/, "");
      expect(shown).toMatch(/^\rsent [36] lines…/);
      // The progress line is erased before the result is written over it.
      expect(shown.endsWith("\r\u001b[Kimported 6, merged 0 duplicates, rejected 0\r\n")).toBe(
        true,
      );
    },
    60_000,
  );

  it("writes no progress when stderr is not a terminal (a pipe, a log file)", async () => {
    const { path, feed } = await slowFile("Piped");
    const child = spawn(process.execPath, [MEMSVC_BIN, "import", "--file", path], {
      env: clientEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = new Promise((resolve) => child.once("exit", resolve));
    await feed();
    expect(await code).toBe(0);
    expect([stdout, stderr]).toEqual(["imported 6, merged 0 duplicates, rejected 0\n", ""]);
  }, 60_000);
});
