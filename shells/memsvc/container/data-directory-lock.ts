import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** A held lock; `release()` is idempotent and also runs when the process exits. */
export interface DataDirectoryLock {
  readonly path: string;
  release(): void;
}

/** The lock file inside the data directory. */
export const LOCK_FILE = "memsvc.lock";

/**
 * Takes the exclusive lock of an embedded data directory, or throws an Error naming the process
 * that holds it. The service's engine is only correct while it is the only writer of its store,
 * so a second `memsvc serve` or `memsvc mcp` on the same directory must fail at startup instead
 * of running a second Chroma on the same files.
 *
 * The lock is a file created with `O_EXCL` holding the owner's pid. A lock whose pid is no longer
 * a running memsvc (the owner was killed with `kill -9`) is stale and taken over. Two services
 * starting at the same instant over a stale lock could in theory both take it over; everything
 * else is exact.
 *
 * @example
 * const lock = lockDataDirectory("./data/chroma"); // throws while another memsvc runs there
 * // … on shutdown, after Chroma stopped:
 * lock.release();
 */
export function lockDataDirectory(directory: string): DataDirectoryLock {
  mkdirSync(directory, { recursive: true });
  const path = join(directory, LOCK_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const owner = lockOwner(path);
      if (owner !== undefined && owner !== process.pid && isRunningMemsvc(owner)) {
        throw new Error(
          `the data directory ${directory} is in use by another memsvc (pid ${owner}); ` +
            `stop it first, or give this one another vector_store.chroma.path ` +
            `(one service owns a store: see docs/memory-model.md)`,
        );
      }
      // Stale: its owner is gone.
      unlinkSync(path);
    }
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      if (lockOwner(path) === process.pid) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.on("exit", release);
  return { path, release };
}

function lockOwner(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, "utf8")) as { pid?: unknown };
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs, and (where /proc tells) runs memsvc, not a process that reused the pid. */
function isRunningMemsvc(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("memsvc");
  } catch {
    return true;
  }
}
