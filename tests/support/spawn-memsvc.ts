import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built `memsvc` entry point the end-to-end tests run (`npm run build` first). */
export const MEMSVC_BIN = fileURLToPath(
  new URL("../../dist/shells/memsvc/cli/memsvc.js", import.meta.url),
);

const STARTUP = /^memsvc \S+ listening on http:\/\/(\S+):(\d+) \(store: (.+); embedder: (.+)\)$/m;

/** How a process ended. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running `memsvc serve` started by {@link startMemsvc}. */
export interface MemsvcProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** The data directory (embedded Chroma persists under `<dataDir>/chroma`). */
  readonly dataDir: string;
  /** Pid of the embedded Chroma child, when there is one. */
  readonly chromaPid: number | undefined;
  /** The startup line's store and embedder descriptions. */
  readonly store: string;
  readonly embedder: string;
  stdout(): string;
  stderr(): string;
  /** Sends the signal (default SIGTERM) and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<ProcessEnd>;
  /** `kill -9` of the service and of its Chroma child, as a power cut would. */
  killHard(): Promise<ProcessEnd>;
  readonly ended: Promise<ProcessEnd>;
}

/** Options of {@link startMemsvc}. */
export interface StartMemsvcOptions {
  /** Reuse a data directory (restart tests); default a fresh temp dir, removed by cleanup. */
  readonly dataDir?: string;
  /** Extra environment (wins over the defaults). */
  readonly env?: Record<string, string>;
  /** Extra arguments after `serve`. */
  readonly args?: readonly string[];
  /** Node options before the entry point, e.g. `["--cpu-prof", "--cpu-prof-dir", dir]` (benches). */
  readonly nodeArgs?: readonly string[];
  /**
   * Resolve as soon as the port is bound (the "listening while starting" log line), before the
   * store is loaded; `store` and `embedder` are then empty (issue 26: early listen).
   */
  readonly untilBound?: boolean;
  /**
   * The largest file the service may write, as `ulimit -f` counts it (blocks of 512 bytes in
   * `sh`): a longer write fails with EFBIG (Node ignores SIGXFSZ), as on a full disk.
   */
  readonly fileSizeLimit?: number;
}

const BOUND = /"msg":"listening while starting[^"]*".*?"address":"[^"]*:(\d+)"/;

const running = new Set<ChildProcess>();
const chromaPids = new Set<number>();
const tempDirs = new Set<string>();

function killEverything(): void {
  for (const child of running)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const pid of chromaPids) {
    try {
      process.kill(-pid, "SIGKILL"); // the launcher makes Chroma a process group leader
    } catch {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  }
}
// Whatever happens to the test run, never leave a service or a Chroma behind.
process.once("exit", killEverything);

/**
 * A fresh temp directory, removed by {@link cleanupMemsvc}.
 *
 * @example
 * const dir = makeTempDir(); // /tmp/memsvc-e2e-XXXXXX
 */
export function makeTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "memsvc-e2e-"));
  tempDirs.add(dir);
  return dir;
}

/**
 * The environment of a test service: the caller's variables without any `MEMSVC_*` or Cohere
 * key, a loopback port 0 and the data directory; the overrides win.
 *
 * @example
 * memsvcEnv(dir, { MEMSVC_API_AUTH_TOKEN: "t" });
 */
export function memsvcEnv(
  dataDir: string,
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("MEMSVC_") && key !== "COHERE_API_KEY" && key !== "CO_API_KEY")
      env[key] = value;
  }
  return {
    ...env,
    MEMSVC_API_LISTEN_ADDR: "127.0.0.1:0",
    MEMSVC_VECTOR_STORE_CHROMA_PATH: join(dataDir, "chroma"),
    ...overrides,
  };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Starts `node dist/shells/memsvc/cli/memsvc.js serve` on a free loopback port with embedded Chroma in a
 * temp dir, and resolves once it printed its startup line (printed only after binding). Rejects
 * with its output if it exits first. Every process started here is killed when the test process
 * exits, whatever happened.
 *
 * @example
 * const svc = await startMemsvc({ env: { MEMSVC_API_AUTH_TOKEN: "secret" } });
 * await fetch(`${svc.baseUrl}/healthz`);
 * await svc.stop();
 */
export function startMemsvc(options: StartMemsvcOptions = {}): Promise<MemsvcProcess> {
  const dataDir = options.dataDir ?? makeTempDir();
  const argv = [...(options.nodeArgs ?? []), MEMSVC_BIN, "serve", ...(options.args ?? [])];
  // `exec` keeps one process: the signals the test sends reach the service itself.
  const [command, args] =
    options.fileSizeLimit === undefined
      ? [process.execPath, argv]
      : [
          "sh",
          ["-c", `ulimit -f ${options.fileSizeLimit} && exec "$0" "$@"`, process.execPath, ...argv],
        ];
  const child = spawn(command, args, {
    cwd: dataDir,
    env: memsvcEnv(dataDir, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  let chromaPid: number | undefined;
  const ended = new Promise<ProcessEnd>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    // The first Chroma, then each one the supervisor restarts: the latest is the live one.
    for (const match of stderr.matchAll(
      /"msg":"embedded Chroma (?:started|restarted)".*?"pid":(\d+)/g,
    )) {
      chromaPid = Number(match[1]);
      chromaPids.add(chromaPid);
    }
  });
  return new Promise((resolve, reject) => {
    const found = () => {
      if (options.untilBound === true) {
        const bound = BOUND.exec(stderr);
        return bound === null ? null : [bound[0], "", bound[1], "", ""];
      }
      return STARTUP.exec(stdout);
    };
    const check = () => {
      const match = found();
      if (match === null) return;
      const port = Number(match[2]);
      resolve({
        child,
        port,
        baseUrl: `http://127.0.0.1:${port}`,
        dataDir,
        get chromaPid() {
          return chromaPid;
        },
        store: match[3] as string,
        embedder: match[4] as string,
        stdout: () => stdout,
        stderr: () => stderr,
        ended,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return ended;
        },
        killHard: async () => {
          if (chromaPid !== undefined) {
            try {
              process.kill(chromaPid, "SIGKILL");
            } catch {
              /* already gone */
            }
          }
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          return ended;
        },
      });
    };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      check();
    });
    child.stderr?.on("data", check);
    void ended.then((end) =>
      reject(
        new Error(`memsvc exited (${JSON.stringify(end)}) before listening:\n${stdout}\n${stderr}`),
      ),
    );
  });
}

/** What {@link runMemsvc} saw. */
export interface MemsvcRun extends ProcessEnd {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `memsvc <args>` to completion (help, version, bad configuration), in a temp dir.
 *
 * @example
 * const run = runMemsvc(["--help"]);
 * expect(run.code).toBe(0);
 */
export function runMemsvc(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
): MemsvcRun {
  const dir = cwd ?? makeTempDir();
  const result = spawnSync(process.execPath, [MEMSVC_BIN, ...args], {
    cwd: dir,
    env: memsvcEnv(dir, env),
    encoding: "utf8",
    timeout: 30_000,
  });
  return {
    code: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}

/**
 * Stops every service still running (SIGKILL: a test that wanted a graceful stop did it itself),
 * waits for them, and removes the temp dirs. Call it from `afterAll`.
 *
 * @example
 * afterAll(cleanupMemsvc);
 */
export async function cleanupMemsvc(): Promise<void> {
  const waits = [...running].map(
    (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null || child.signalCode !== null
          ? resolve()
          : child.once("exit", () => resolve()),
      ),
  );
  killEverything();
  await Promise.all(waits);
  for (const pid of chromaPids) {
    for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  }
  chromaPids.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
