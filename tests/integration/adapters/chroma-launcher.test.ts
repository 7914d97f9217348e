import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startEmbeddedChroma } from "../../../adapters/chroma/chroma-launcher.js";
import { ChromaVectorStore } from "../../../adapters/chroma/chroma-vector-store.js";

const LAUNCHER = pathToFileURL(resolve("adapters/chroma/chroma-launcher.ts")).href;

/** True while the process exists and is not a zombie waiting for a reaper. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Polls until the process is gone; false if it is still there after `limitMs`. */
async function waitForExit(pid: number, limitMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isRunning(pid);
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** Runs a parent process that starts Chroma, reports `{pid, url}` and then does `then`. */
async function startInParent(
  dir: string,
  then: "idle" | "exit",
): Promise<{ parent: ReturnType<typeof spawn>; chroma: { pid: number; url: string } }> {
  const script = join(dir, "parent.mts");
  await writeFile(
    script,
    `import { startEmbeddedChroma } from ${JSON.stringify(LAUNCHER)};
const chroma = await startEmbeddedChroma({ path: ${JSON.stringify(join(dir, "data"))} });
console.log(JSON.stringify({ pid: chroma.pid, url: chroma.url }));
${then === "exit" ? "process.exit(0);" : "setInterval(() => {}, 1000);"}
`,
  );
  const parent = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: parent.stdout! });
  const first = await new Promise<string>((resolveLine, reject) => {
    lines.once("line", resolveLine);
    parent.once("close", (code) => reject(new Error(`parent exited early with ${code}`)));
  });
  return { parent, chroma: JSON.parse(first) as { pid: number; url: string } };
}

describe("startEmbeddedChroma", () => {
  let dir: string;
  let blocker: Server | undefined;
  /** Children started through a parent process, killed here if a test failed to end them. */
  const orphans: number[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agent-services-launcher-"));
  });
  afterEach(async () => {
    blocker?.close();
    blocker = undefined;
    for (const pid of orphans.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("starts Chroma on a free loopback port and stops it, twice without harm", async () => {
    const chroma = await startEmbeddedChroma({
      path: join(dir, "data"),
      logFile: join(dir, "log"),
    });
    expect(chroma.url).toBe(`http://127.0.0.1:${chroma.port}`);
    expect(chroma.port).toBeGreaterThan(0);
    expect(await answers(chroma.url)).toBe(true);
    await chroma.stop();
    await chroma.stop();
    expect(isRunning(chroma.pid)).toBe(false);
    expect(await answers(chroma.url)).toBe(false);
    expect(readFileSync(join(dir, "log"), "utf8")).toContain("Saving data to");
  });

  it("keeps the data across a restart on the same path", async () => {
    const path = join(dir, "data");
    const first = await startEmbeddedChroma({ path });
    const before = new ChromaVectorStore({ url: first.url, collection: "persist" });
    await before.bind({ embedderId: "e", dimensions: 2 });
    await before.upsert([{ id: "kept", vector: [1, 0], document: "survives", metadata: { n: 1 } }]);
    await before.close();
    await first.stop();

    const second = await startEmbeddedChroma({ path });
    try {
      const after = new ChromaVectorStore({ url: second.url, collection: "persist" });
      await after.bind({ embedderId: "e", dimensions: 2 });
      expect(await after.get(["kept"])).toEqual([
        { id: "kept", document: "survives", metadata: { n: 1 } },
      ]);
      await after.close();
    } finally {
      await second.stop();
    }
  });

  it("fails with the log tail when the requested port is taken", async () => {
    blocker = createServer();
    await new Promise<void>((r) => blocker!.listen(0, "127.0.0.1", r));
    const address = blocker.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const error = await startEmbeddedChroma({
      path: join(dir, "data"),
      port,
      logFile: join(dir, "log"),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("port already in use");
    expect((error as Error).message).toContain(`127.0.0.1:${port} is not available`);
  });

  it("says the data path is not a directory when it is a regular file", async () => {
    const file = join(dir, "data");
    await writeFile(file, "not a directory");
    await expect(startEmbeddedChroma({ path: file })).rejects.toThrow(
      `cannot start embedded Chroma: its data path ${file} exists and is not a directory`,
    );
    const below = join(file, "chroma");
    await expect(startEmbeddedChroma({ path: below })).rejects.toThrow(
      `cannot create the embedded Chroma data directory ${below}: a parent of it is a file`,
    );
  });

  it("names the cause and the file when the store is not an SQLite database", async () => {
    const path = join(dir, "data");
    await mkdir(path);
    await writeFile(join(path, "chroma.sqlite3"), Buffer.alloc(8_192, 0x5a));
    const logFile = join(dir, "log");
    // An earlier start's output in the same log must not be mistaken for this one's.
    await writeFile(logFile, "thread 'x' panicked at old.rs:1:1:\nan old failure\n");
    const error = await startEmbeddedChroma({ path, logFile }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain('"file is not a database"');
    expect(error?.message).toContain(`The store ${path}/chroma.sqlite3 is corrupted`);
    expect(error?.message).not.toContain("an old failure");
    expect(error?.message).not.toContain("stack backtrace");
  });

  it("kills Chroma when the parent process is SIGKILLed", async () => {
    const { parent, chroma } = await startInParent(dir, "idle");
    orphans.push(chroma.pid);
    expect(await answers(chroma.url)).toBe(true);
    const parentGone = new Promise((r) => parent.once("exit", r));
    parent.kill("SIGKILL");
    await parentGone;
    expect(await waitForExit(chroma.pid)).toBe(true);
    expect(await answers(chroma.url)).toBe(false);
  });

  it("kills Chroma when the parent exits without stopping it", async () => {
    const { parent, chroma } = await startInParent(dir, "exit");
    orphans.push(chroma.pid);
    await new Promise((r) => (parent.exitCode === null ? parent.once("exit", r) : r(undefined)));
    expect(await waitForExit(chroma.pid)).toBe(true);
    expect(await answers(chroma.url)).toBe(false);
  });
});
