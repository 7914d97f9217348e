import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readSync, fstatSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";

/** Options of {@link startEmbeddedChroma}. */
export interface EmbeddedChromaOptions {
  /** Directory Chroma persists to; created when missing. */
  readonly path: string;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Port to bind; `0` (the default) picks a free loopback port. */
  readonly port?: number;
  /** File Chroma's stdout and stderr are appended to; discarded when absent. */
  readonly logFile?: string;
  /** How long to wait for the first successful heartbeat. Default 30 000 ms. */
  readonly startTimeoutMs?: number;
}

/** A running Chroma server started by {@link startEmbeddedChroma}. */
export interface EmbeddedChroma {
  /** Base URL, e.g. `http://127.0.0.1:39153`. */
  readonly url: string;
  readonly port: number;
  /** Process id of the child (also its process group id). */
  readonly pid: number;
  /** SIGTERM, then SIGKILL after ~3 s; resolves once the child has exited. Idempotent. */
  stop(): Promise<void>;
  /** Resolves with the exit code (null when killed by a signal) once the child has exited. */
  readonly exited: Promise<number | null>;
}

/** Exit code the child script uses when the native binding cannot be loaded. */
const BINDING_LOAD_FAILED = 78;
/** Exit code the child script uses when Chroma's `cli()` returned (it failed to serve). */
const CLI_RETURNED = 75;
const KILL_GRACE_MS = 3_000;
const POLL_INTERVAL_MS = 100;

/**
 * Runs in the child. `cli()` blocks the main thread for good, so the watchdog that ends the
 * child when its parent disappears (e.g. `kill -9` of the service) lives in a worker thread.
 * Comparing `process.ppid` with the pid we were given also catches a recycled parent pid.
 */
const CHILD_SCRIPT = `
const { Worker } = require("node:worker_threads");
const [parentPid, bindingPath, argv] = [Number(process.argv[1]), process.argv[2], JSON.parse(process.argv[3])];
new Worker(
  "const p = " + parentPid + ";" +
  "setInterval(() => { let alive = process.ppid === p;" +
  " if (alive) { try { process.kill(p, 0); } catch { alive = false; } }" +
  " if (!alive) process.kill(process.pid, 'SIGKILL'); }, 1000);",
  { eval: true },
);
let binding;
try { binding = require(bindingPath); } catch (error) {
  console.error("cannot load " + bindingPath + ": " + (error && error.message));
  process.exit(${BINDING_LOAD_FAILED});
}
binding.cli(argv);
// cli() returns only when Chroma gave up (e.g. the address is taken); the worker would keep us alive.
process.exit(${CLI_RETURNED});
`;

/**
 * Starts a Chroma server from the npm-installed native binding as a child process and waits
 * until it answers its heartbeat.
 *
 * The child runs in its own process group and is killed when this process exits, and a watchdog
 * inside it ends it within ~1 s if this process is killed outright, so it never outlives the
 * service holding the port and the data directory.
 *
 * @example
 * const chroma = await startEmbeddedChroma({ path: "./data/chroma", logFile: "./data/chroma.log" });
 * const store = new ChromaVectorStore({ url: chroma.url });
 * // … on shutdown:
 * await store.close();
 * await chroma.stop();
 */
export async function startEmbeddedChroma(options: EmbeddedChromaOptions): Promise<EmbeddedChroma> {
  const bindingPath = resolveBinding();
  mkdirSync(options.path, { recursive: true });
  const host = options.host ?? "127.0.0.1";
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const requested = options.port ?? 0;
  // Another process may grab a picked port between our probe and Chroma's bind: retry once.
  const attempts = requested === 0 ? 2 : 1;
  for (let attempt = 1; ; attempt += 1) {
    const port = requested === 0 ? await freePort(host) : requested;
    try {
      return await launch(bindingPath, options, host, port, timeoutMs);
    } catch (error) {
      const retry =
        attempt < attempts && error instanceof ChildExitedError && error.exitCode === CLI_RETURNED;
      if (!retry) throw unwrap(error);
    }
  }
}

/** The platform package that carries Chroma's native binding for this machine. */
function bindingPackageName(): string {
  const { platform, arch } = process;
  if (platform === "linux") return `chromadb-js-bindings-linux-${arch}-gnu`;
  if (platform === "win32") return `chromadb-js-bindings-win32-${arch}-msvc`;
  return `chromadb-js-bindings-${platform}-${arch}`;
}

function resolveBinding(): string {
  const name = bindingPackageName();
  try {
    return createRequire(import.meta.url).resolve(name);
  } catch (cause) {
    throw new Error(
      `cannot start embedded Chroma: the platform package ${name} is not installed ` +
        `(it is an optional dependency of chromadb; install it or set a Chroma server URL)`,
      { cause },
    );
  }
}

class ChildExitedError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

function unwrap(error: unknown): unknown {
  if (!(error instanceof ChildExitedError)) return error;
  if (error.exitCode === BINDING_LOAD_FAILED) {
    return new Error(
      `cannot start embedded Chroma: the native binding ${bindingPackageName()} failed to load ` +
        `(on glibc < 2.38 only versions up to 1.0.5 load). ${error.message}`,
    );
  }
  if (error.exitCode === CLI_RETURNED) {
    return new Error(`${error.message} (Chroma stopped on its own: is the port already in use?)`);
  }
  return new Error(error.message);
}

async function launch(
  bindingPath: string,
  options: EmbeddedChromaOptions,
  host: string,
  port: number,
  timeoutMs: number,
): Promise<EmbeddedChroma> {
  const argv = ["chroma", "run", "--path", options.path, "--host", host, "--port", String(port)];
  const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(
      process.execPath,
      ["-e", CHILD_SCRIPT, String(process.pid), bindingPath, JSON.stringify(argv)],
      {
        detached: true,
        stdio: ["ignore", logFd ?? "ignore", logFd ?? "ignore"],
      },
    );
  } finally {
    if (logFd !== undefined) closeSync(logFd);
  }
  const pid = child.pid;
  if (pid === undefined) {
    throw await new Promise<Error>((resolve) =>
      child.once("error", (cause) => resolve(new Error("cannot spawn embedded Chroma", { cause }))),
    );
  }
  // The child must not keep this process alive, and must not outlive it.
  child.unref();
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  const onParentExit = (): void => killGroup("SIGKILL");
  process.on("exit", onParentExit);

  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code) => {
      exitCode = code;
      process.off("exit", onParentExit);
      resolve();
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exitCode !== undefined) return;
      killGroup("SIGTERM");
      const timer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (exitCode === undefined) {
    if (await heartbeat(url)) {
      return { url, port, pid, stop, exited: exited.then(() => exitCode ?? null) };
    }
    if (Date.now() >= deadline) {
      await stop();
      throw new Error(
        `embedded Chroma did not answer ${url}/api/v2/heartbeat within ${timeoutMs} ms${logTail(options.logFile)}`,
      );
    }
    await Promise.race([exited, sleep(POLL_INTERVAL_MS)]);
  }
  throw new ChildExitedError(
    `embedded Chroma exited with code ${String(exitCode)} before answering on ${url}${logTail(options.logFile)}`,
    exitCode,
  );
}

async function heartbeat(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Asks the OS for a free port by binding port 0, then releases it for Chroma. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen({ host, port: 0 }, () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The last lines of the log, for error messages; a hint when there is no log. */
function logTail(logFile: string | undefined): string {
  if (logFile === undefined) return " (set logFile to keep Chroma's output)";
  try {
    const fd = openSync(logFile, "r");
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, 2_000);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return `; last lines of ${logFile}:\n${buffer.toString("utf8")}`;
    } finally {
      closeSync(fd);
    }
  } catch {
    return "";
  }
}
