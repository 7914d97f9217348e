import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { LOCK_FILE } from "../../shells/memsvc/container/data-directory-lock.js";

const LOCK_MODULE = new URL("../../shells/memsvc/container/data-directory-lock.ts", import.meta.url)
  .pathname;

/**
 * A process that takes the lock when told: `go <round> <epoch ms>` makes it wait until that
 * instant (all of them together) and try; it answers `<round> owner` or `<round> refused`;
 * `release` releases a lock it holds. Its command line names memsvc (the lock checks that a
 * live owner is a memsvc, not a process that reused the pid).
 */
const CHILD = `
  import { createInterface } from "node:readline";
  import { lockDataDirectory } from ${JSON.stringify(LOCK_MODULE)};
  const dir = process.argv.at(-1);
  let lock;
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, round, at] = line.split(" ");
    if (command === "release") { lock?.release(); lock = undefined; console.log("released"); continue; }
    while (Date.now() < Number(at)) { /* spin: every process tries at the same instant */ }
    try { lock = lockDataDirectory(dir); console.log(round + " owner"); }
    catch (error) { console.log(round + " refused " + JSON.stringify(String(error.message).slice(0, 60))); }
  }
`;

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function startChild(dir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CHILD, "memsvc-lock-race", dir],
    { stdio: "pipe" },
  );
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const next = waiting.shift();
    if (next === undefined) lines.push(line);
    else next(line);
  });
  return {
    send: (line: string) => child.stdin.write(`${line}\n`),
    next: () =>
      new Promise<string>((resolve) => {
        const line = lines.shift();
        if (line === undefined) waiting.push(resolve);
        else resolve(line);
      }),
  };
}

/** A pid that ran and exited: a lock naming it is stale. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  }).stdout as unknown as number;
}

describe("data directory lock under simultaneous takeovers", () => {
  it("gives a stale lock to exactly one of 4 processes trying at the same instant, 30 rounds", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memsvc-lock-race-"));
    dirs.push(dir);
    const racers = Array.from({ length: 4 }, () => startChild(dir));
    const rounds = 30;
    const owners: number[] = [];
    const stalePid = Number(deadPid());
    for (let round = 0; round < rounds; round += 1) {
      // A lock left by a process killed with kill -9 (its pid no longer runs).
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid: stalePid, since: `round ${round}` }),
      );
      const at = Date.now() + (round === 0 ? 3_000 : 100); // the first round waits for tsx
      for (const racer of racers) racer.send(`go ${round} ${at}`);
      const answers = await Promise.all(racers.map((racer) => racer.next()));
      const won = answers.flatMap((answer, i) => (answer === `${round} owner` ? [i] : []));
      owners.push(won.length);
      expect(
        answers.every(
          (a) => a === `${round} owner` || a.startsWith(`${round} refused "the data directory`),
        ),
        answers.join("\n"),
      ).toBe(true);
      for (const i of won) {
        racers[i]?.send("release");
        expect(await racers[i]?.next()).toBe("released");
      }
    }
    expect(owners).toEqual(Array.from({ length: rounds }, () => 1));
  }, 120_000);
});
