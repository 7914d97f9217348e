import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built `sqlsvc-mcp` entry point the end-to-end tests run (`npm run build` first). */
export const SQLSVC_BIN = fileURLToPath(
  new URL("../../dist/shells/sqlsvc/cli/sqlsvc-mcp.js", import.meta.url),
);

const STARTUP = /^sqlsvc-mcp: listening on (.+):(\d+) \(auth=(true|false)\)$/m;

/** A running `sqlsvc-mcp` started by {@link startSqlsvc}. */
export interface SqlsvcProcess {
  readonly child: ChildProcess;
  /** The bound port, read from the startup line. */
  readonly port: number;
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends the signal (default SIGTERM) and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<ProcessEnd>;
  /** Resolves when the process ends (without signalling it). */
  readonly ended: Promise<ProcessEnd>;
}

/** How a process ended. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The environment for a test server: the caller's variables with every `SQLSVC_*` removed, a
 * free port (0, allowed explicitly) and a single worker unless the test says otherwise.
 *
 * @example
 * spawn(process.execPath, [SQLSVC_BIN], { env: sqlsvcEnv({ SQLSVC_MCP_AUTH_TOKEN: "t" }) });
 */
export function sqlsvcEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("SQLSVC_")) env[key] = value;
  return {
    ...env,
    SQLSVC_MCP_PORT: "0",
    SQLSVC_MCP_ALLOW_PORT_0: "1",
    SQLSVC_MCP_WORKERS: "1",
    ...overrides,
  };
}

/**
 * Starts the built server as a real process on a free loopback port and resolves once it printed
 * its startup line (which it does only after binding). Rejects with its stderr if it exits first.
 *
 * @example
 * const server = await startSqlsvc({ SQLSVC_MCP_AUTH_TOKEN: "secret" });
 * await fetch(server.url, { method: "POST", ... });
 * await server.stop();
 */
export function startSqlsvc(env: Record<string, string> = {}): Promise<SqlsvcProcess> {
  const child = spawn(process.execPath, [SQLSVC_BIN], {
    env: sqlsvcEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const ended = new Promise<ProcessEnd>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = STARTUP.exec(stderr);
      if (match === null) return;
      const port = Number(match[2]);
      resolve({
        child,
        port,
        url: `http://127.0.0.1:${port}/mcp`,
        stderr: () => stderr,
        ended,
        stop: (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return ended;
        },
      });
    });
    child.stdout.resume();
    void ended.then((end) =>
      reject(new Error(`sqlsvc-mcp exited (${JSON.stringify(end)}) before listening:\n${stderr}`)),
    );
  });
}

/** What {@link runSqlsvc} saw. */
export interface SqlsvcRun extends ProcessEnd {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built binary to completion (for `--help`, `--version`, configuration errors…).
 *
 * @example
 * const run = await runSqlsvc(["--version"]);
 * expect(run.code).toBe(0);
 */
export function runSqlsvc(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<SqlsvcRun> {
  const child = spawn(process.execPath, [SQLSVC_BIN, ...args], {
    env: sqlsvcEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

/**
 * POSTs one JSON-RPC message the way a plain HTTP client would: `Content-Type: application/json`,
 * no Accept header, no session.
 *
 * @example
 * const res = await postJson(server.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
 */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/**
 * The body of a `tools/call` request.
 *
 * @example
 * await postJson(server.url, toolCall("validate_sql", { sql: "SELECT 1" }));
 */
export function toolCall(
  name: string,
  args: Record<string, unknown>,
  id: number | string = 1,
): unknown {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}
