import { describe, expect, it } from "vitest";
import { SQLSVC_BIN, sqlsvcEnv } from "../support/spawn-sqlsvc.js";
import { runInTerminal, terminalAvailable } from "../support/run-in-terminal.js";

/** The terminal's lines without carriage returns. */
const plainLines = (text: string) =>
  text
    .replaceAll("\r", "")
    .split("\n")
    .filter((line) => line !== "");

describe.skipIf(!terminalAvailable())("sqlsvc-mcp's startup lines on a terminal (issue 24)", () => {
  it("writes its warning, started and stopped lines as text, like memsvc at a terminal, after the seed's line", async () => {
    const run = runInTerminal([SQLSVC_BIN], sqlsvcEnv({ SQLSVC_MCP_PORTT: "9000", NO_COLOR: "1" }));
    const pid = await run.pid;
    await expect.poll(() => run.output(), { timeout: 30_000 }).toMatch(/listening on/);
    await expect.poll(() => run.output(), { timeout: 10_000 }).toMatch(/ started /);
    process.kill(pid, "SIGTERM");
    expect(await run.ended).toBe(0);
    const lines = plainLines(run.output()).filter((line) => !line.startsWith("TERMINAL_PID="));
    expect(lines).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d\.\d{3} WARN {2}environment variable SQLSVC_MCP_PORTT matches no setting/,
      ),
      expect.stringMatching(/^sqlsvc-mcp: listening on 127\.0\.0\.1:\d+ \(auth=false\)$/),
      expect.stringMatching(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}started host=127\.0\.0\.1 port=\d+ auth=false workers=1 version=\S+$/,
      ),
      expect.stringMatching(
        /^\d\d:\d\d:\d\d\.\d{3} INFO {2}stopped reason=SIGTERM exit_code=0 uptime_s=\d+$/,
      ),
    ]);
  }, 60_000);
});
