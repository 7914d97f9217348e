import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { AgentServicesError } from "../../../core/errors.js";

/** A held lock; `release()` is idempotent and also runs when the process exits. */
export interface DataDirectoryLock {
  readonly path: string;
  release(): void;
}

/** The lock file inside the data directory. */
export const LOCK_FILE = "memsvc.lock";
/** A takeover claim older than this was left by a process that died mid-takeover. */
const CLAIM_STALE_MS = 10_000;

/**
 * Takes the exclusive lock of an embedded data directory, or throws an Error naming the process
 * that holds it. The service's engine is only correct while it is the only writer of its store,
 * so a second `memsvc serve` or `memsvc mcp` on the same directory must fail at startup instead
 * of running a second Chroma on the same files.
 *
 * The lock is a file holding the owner's pid, made whole in a private file and then linked into
 * place (`link` fails when the lock exists: atomic, and never seen half written). A lock whose
 * pid is no longer a running memsvc (the owner was killed with `kill -9`) is stale and taken over
 * by exactly one process, however many try at the same instant: each first creates, with
 * `O_EXCL`, a claim named after the stale lock's content; the one that gets it checks the lock
 * still holds that content, removes it and links its own, the others then find a live owner.
 *
 * @example
 * const lock = lockDataDirectory("./data/chroma"); // throws while another memsvc runs there
 * // … on shutdown, after Chroma stopped:
 * lock.release();
 */
export function lockDataDirectory(directory: string): DataDirectoryLock {
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    throw dataDirectoryError(error, directory);
  }
  const path = join(directory, LOCK_FILE);
  const mine = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(mine, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
  } catch (error) {
    throw dataDirectoryError(error, directory);
  }
  try {
    takeLock(path, mine, directory);
  } finally {
    try {
      unlinkSync(mine);
    } catch {
      // Already gone.
    }
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      if (lockOwner(readLock(path)) === process.pid) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.on("exit", release);
  return { path, release };
}

function takeLock(path: string, mine: string, directory: string): void {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      linkSync(mine, path);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const content = readLock(path);
    if (content === undefined) continue; // Released meanwhile: try again.
    const owner = lockOwner(content);
    if (owner !== undefined && owner !== process.pid && isRunningMemsvc(owner)) {
      // Coded: the operator's mistake, logged without a stack.
      throw new AgentServicesError(
        "config_invalid",
        `the data directory ${directory} is in use by another memsvc (pid ${owner}); ` +
          `stop it first, or give this one another vector_store.chroma.path ` +
          `(one service owns a store: see docs/memory-model.md)`,
      );
    }
    // Stale: its owner is gone. One process takes it over; the others look again.
    if (!takeOverStale(path, content)) sleepMs(10);
  }
  throw new Error(`could not take the lock ${path}: it keeps changing hands`);
}

/** Removes the stale lock holding `content`, if this process wins the claim on it. */
function takeOverStale(path: string, content: string): boolean {
  const claim = `${path}.takeover-${createHash("sha256").update(content).digest("hex").slice(0, 16)}`;
  let fd: number;
  try {
    fd = openSync(claim, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    removeIfOld(claim);
    return false;
  }
  try {
    writeSync(fd, String(process.pid));
    closeSync(fd);
    // Only the winner of this claim removes this lock; it is checked once more (a process that
    // read it before another took it over wins a claim on a lock that is no longer there).
    if (readLock(path) === content) unlinkSync(path);
    return true;
  } finally {
    try {
      unlinkSync(claim);
    } catch {
      // Already gone.
    }
  }
}

/** A claim left by a process that died in the middle of a takeover. */
function removeIfOld(claim: string): void {
  try {
    if (Date.now() - statSync(claim).mtimeMs > CLAIM_STALE_MS) unlinkSync(claim);
  } catch {
    // Gone.
  }
}

function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function lockOwner(content: string | undefined): number | undefined {
  try {
    const { pid } = JSON.parse(content ?? "") as { pid?: unknown };
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
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

/** A data directory that cannot be used, as a configuration error naming it. */
function dataDirectoryError(error: unknown, directory: string): AgentServicesError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "EEXIST" || code === "ENOTDIR"
      ? "is not a directory (a file has its name, or one of its parents is a file)"
      : `cannot be written (${code ?? String(error)})`;
  return new AgentServicesError(
    "config_invalid",
    `the data directory ${directory} ${why}; fix it or set another vector_store.chroma.path`,
    { cause: error },
  );
}
