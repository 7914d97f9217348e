import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync } from "node:fs";
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
  const binding = resolveBinding();
  prepareDataDirectory(options.path);
  const host = options.host ?? "127.0.0.1";
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const requested = options.port ?? 0;
  // Another process may grab a picked port between our probe and Chroma's bind: retry once.
  const attempts = requested === 0 ? 2 : 1;
  for (let attempt = 1; ; attempt += 1) {
    const port = requested === 0 ? await freePort(host) : requested;
    try {
      return await launch(binding.path, options, host, port, timeoutMs);
    } catch (error) {
      const retry =
        attempt < attempts && error instanceof ChildExitedError && error.exitCode === CLI_RETURNED;
      if (!retry) throw unwrap(error, binding);
    }
  }
}

/**
 * The package that carries the Chroma binary we run: an alias of the platform binding pinned in
 * our own `optionalDependencies` (`chroma-server` = `chromadb-js-bindings-linux-x64-gnu@1.0.5`,
 * the newest that loads on glibc 2.34+). A pin in `overrides` would not reach projects that
 * install this package, so the launcher resolves the alias, not the name chromadb depends on.
 */
const PINNED_BINDING = "chroma-server";
const PINNED_BINDING_TARGET = "chromadb-js-bindings-linux-x64-gnu@1.0.5";

/** The platform package that chromadb itself depends on for this machine (a fallback). */
function platformBindingName(): string {
  const { platform, arch } = process;
  if (platform === "linux") return `chromadb-js-bindings-linux-${arch}-gnu`;
  if (platform === "win32") return `chromadb-js-bindings-win32-${arch}-msvc`;
  return `chromadb-js-bindings-${platform}-${arch}`;
}

/** The binding that was resolved: its file and a name for messages. */
interface ResolvedBinding {
  readonly path: string;
  readonly label: string;
}

/**
 * Our pinned alias when it is installed (Linux x64 with glibc); otherwise chromadb's own platform
 * package (macOS, Windows, arm64), which npm installs as chromadb's optional dependency.
 */
function resolveBinding(): ResolvedBinding {
  const require = createRequire(import.meta.url);
  const candidates = [
    { name: PINNED_BINDING, label: `${PINNED_BINDING} (npm:${PINNED_BINDING_TARGET})` },
    { name: platformBindingName(), label: platformBindingName() },
  ];
  for (const { name, label } of candidates) {
    try {
      return { path: require.resolve(name), label };
    } catch {
      // Not installed here: try the next one.
    }
  }
  throw new Error(
    `cannot start embedded Chroma: no Chroma binary is installed for ${process.platform}-${process.arch} ` +
      `(looked for ${candidates.map((c) => c.label).join(" and ")}, optional dependencies of ` +
      `agent-services and chromadb; reinstall without --omit=optional, or set ` +
      `vector_store.chroma.url to a running Chroma server)`,
  );
}

/** Creates the data directory, or says plainly why it cannot be one. */
function prepareDataDirectory(path: string): void {
  let existing;
  try {
    existing = statSync(path, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR (a parent is a file) and the like: mkdirSync below says which.
  }
  if (existing !== undefined && !existing.isDirectory()) {
    throw new Error(
      `cannot start embedded Chroma: its data path ${path} exists and is not a directory ` +
        `(set vector_store.chroma.path to a directory)`,
    );
  }
  try {
    mkdirSync(path, { recursive: true });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === "ENOTDIR" || code === "EEXIST"
        ? "a parent of it is a file, not a directory"
        : code === "EACCES" || code === "EPERM"
          ? "permission denied"
          : String((cause as Error).message);
    throw new Error(`cannot create the embedded Chroma data directory ${path}: ${why}`);
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

function unwrap(error: unknown, binding: ResolvedBinding): unknown {
  if (!(error instanceof ChildExitedError)) return error;
  if (error.exitCode === BINDING_LOAD_FAILED) {
    return new Error(
      `cannot start embedded Chroma: the native binding ${binding.label} failed to load ` +
        `(bindings after 1.0.5 need glibc 2.38+; ${PINNED_BINDING_TARGET} needs 2.34). ${error.message}`,
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
  // The log is appended to across starts: only what this start wrote explains its failure.
  const logStart = options.logFile === undefined ? 0 : fileSize(options.logFile);
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
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitCode = code;
      exitSignal = signal;
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
        `embedded Chroma did not answer ${url}/api/v2/heartbeat within ${timeoutMs} ms${explainFromLog(options, logStart)}`,
      );
    }
    await Promise.race([exited, sleep(POLL_INTERVAL_MS)]);
  }
  throw new ChildExitedError(
    `embedded Chroma ${exitSignal === null ? `exited with code ${String(exitCode)}` : `was ended by ${String(exitSignal)}`} ` +
      `before answering on ${url}${explainFromLog(options, logStart)}`,
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

function fileSize(file: string): number {
  return statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * Why Chroma failed, from what it wrote to the log since `from`: the panic message when there is
 * one (a Rust panic prints its cause first, then a backtrace of ~80 lines that would push the
 * cause out of any tail), with a hint for a store that is not an SQLite database; else the last
 * lines. A hint to set `logFile` when there is no log.
 */
function explainFromLog(options: EmbeddedChromaOptions, from: number): string {
  const { logFile } = options;
  if (logFile === undefined) return " (set logFile to keep Chroma's output)";
  const output = readFrom(logFile, from);
  if (output === undefined) return "";
  const lines = output.split("\n");
  const panic = lines.findIndex((line) => / panicked at /.test(line));
  if (panic >= 0) {
    const rest = lines.slice(panic + 1);
    const end = rest.findIndex((line) => /^\s*(note: |stack backtrace:|\d+: )/.test(line));
    const message = rest
      .slice(0, end < 0 ? 3 : Math.min(end, 3))
      .join(" ")
      .trim();
    let hint = "";
    if (/file is not a database|database disk image is malformed/.test(message)) {
      hint =
        `. The store ${options.path}/chroma.sqlite3 is corrupted or is not a Chroma database: ` +
        `restore it from a backup, or move the directory away to start empty`;
    }
    return `: Chroma failed: ${message}${hint} (full output in ${logFile})`;
  }
  const tail = output.length > 2_000 ? output.slice(-2_000) : output;
  return `; last lines of ${logFile}:\n${tail}`;
}

/** The file's content from byte `from` on (at most the first 64 KiB of it). */
function readFrom(file: string, from: number): string | undefined {
  try {
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      const start = from <= size ? from : 0;
      const length = Math.min(size - start, 65_536);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, start);
      return buffer.toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
