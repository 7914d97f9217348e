import cluster, { type Worker } from "node:cluster";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { SqlToolkit } from "../../core/sql/results.js";
import { answerClientErrors } from "../common/http/answer-client-errors.js";
import { OriginPolicy } from "../common/http/origin-check.js";
import { createBatchedWriter } from "../common/batched-writer.js";
import { drainServer } from "../common/drain-server.js";
import { createJsonLogger, createStderrLogger, type Logger } from "../common/logger.js";
import { createServiceMetrics } from "../common/service-metrics.js";
import { BudgetedSqlRunner } from "./budgeted-sql-runner.js";
import { createSqlsvcServer } from "./sqlsvc-app.js";
import type { SqlsvcConfig } from "./sqlsvc-config.js";

/**
 * Options of {@link runSqlsvcHttp}.
 *
 * @example
 * const options: RunSqlsvcHttpOptions = { config, version: "0.1.0", loadToolkit: loadSqlToolkit, log };
 */
export interface RunSqlsvcHttpOptions {
  readonly config: SqlsvcConfig;
  readonly version: string;
  /** Loads the parser and builds the toolkit (only in processes that serve). */
  readonly loadToolkit: () => Promise<SqlToolkit>;
  /** Writes one line to stderr. */
  readonly log: (line: string) => void;
  /**
   * Where the `started` and `stopped` lines go (default: stderr, text on a terminal and JSON
   * lines otherwise, as memsvc chooses).
   */
  readonly logger?: Logger;
}

type WorkerMessage = { type: "listening"; port: number } | { type: "fatal"; message: string };

/**
 * Runs the HTTP server until SIGINT/SIGTERM and resolves to the exit code: 0 after a graceful
 * stop (no new connections, in-flight requests drained), 1 when it could not start (bind
 * failure, parser failure). With `workers > 1` this process forks that many cluster workers that
 * share the listening socket (one Node process per core: the WASM parsers are synchronous and
 * CPU-bound) and prints the startup line once, after every worker has bound; with one worker it
 * serves in-process. The seed's text startup line is followed by a `started` line, and a
 * `stopped` line ends the run (text on a terminal, JSON lines otherwise); a bind failure is printed once, whatever the workers. In a
 * cluster worker (this same entry point re-run by `cluster.fork`) it serves and reports to the
 * primary instead of printing.
 *
 * @example
 * process.exitCode = await runSqlsvcHttp({ config, version, loadToolkit, log: (l) => console.error(l) });
 */
export async function runSqlsvcHttp(options: RunSqlsvcHttpOptions): Promise<number> {
  // Listen for stop requests from the very start: a signal during startup must still end in a
  // clean exit 0, not Node's default death by signal.
  const stopper = createStopper();
  process.once("SIGINT", stopper.request);
  process.once("SIGTERM", stopper.request);
  if (cluster.isWorker) {
    return serveInWorker(options, stopper);
  }
  const logger = options.logger ?? createStderrLogger({ level: "info", format: undefined });
  const { config, version } = options;
  let startedAt: number | undefined;
  // The seed's startup line stays as it is (clients wait for it); the same facts follow as a
  // JSON line like every other, and one JSON line says when the server has stopped (issue 24).
  const onListening = (port: number) => {
    startedAt = Date.now();
    options.log(startupLine(config, port));
    logger.info("started", {
      host: config.host,
      port,
      auth: config.authToken !== "",
      workers: config.workers,
      version,
    });
  };
  const code =
    config.workers > 1
      ? await superviseWorkers(options, stopper, onListening)
      : await serve(options, stopper, onListening, options.log);
  if (startedAt !== undefined) {
    logger.info("stopped", {
      reason: stopper.reason() ?? (code === 0 ? "done" : "failure"),
      exit_code: code,
      uptime_s: Math.round((Date.now() - startedAt) / 1000),
    });
  }
  return code;
}

/** A cluster worker: serves and reports to the primary, which does the talking. */
function serveInWorker(options: RunSqlsvcHttpOptions, stopper: Stopper): Promise<number> {
  const send = (message: WorkerMessage) => process.send?.(message);
  // The primary is gone: nobody will route connections to us any more.
  process.once("disconnect", stopper.request);
  return serve(
    options,
    stopper,
    (port) => send({ type: "listening", port }),
    (message) => send({ type: "fatal", message }),
  );
}

function startupLine(config: SqlsvcConfig, port: number): string {
  return `sqlsvc-mcp: listening on ${config.host}:${port} (auth=${String(config.authToken !== "")})`;
}

/** A stop request that may come before there is anything to stop. */
interface Stopper {
  readonly request: (signal?: unknown) => void;
  /** The signal that asked for the stop, if one did. */
  readonly reason: () => string | undefined;
  /** Runs `action` on the first request (at once if one already came). */
  onStop(action: () => void): void;
  readonly requested: () => boolean;
}

function createStopper(): Stopper {
  let requested = false;
  let reason: string | undefined;
  let action: (() => void) | undefined;
  return {
    request: (signal) => {
      if (requested) return;
      requested = true;
      if (typeof signal === "string") reason = signal;
      action?.();
    },
    reason: () => reason,
    onStop: (next) => {
      action = next;
      if (requested) next();
    },
    requested: () => requested,
  };
}

/** Serves until a stop request; `onListening` runs once bound. */
async function serve(
  options: RunSqlsvcHttpOptions,
  stopper: Stopper,
  onListening: (port: number) => void,
  onFatal: (message: string) => void,
): Promise<number> {
  const { config } = options;
  let toolkit: SqlToolkit;
  try {
    toolkit = await options.loadToolkit();
  } catch (error) {
    onFatal(
      `sqlsvc-mcp: cannot load the SQL parser: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  if (stopper.requested()) return 0;
  // One line per tool call: written in batches (a write each cost a system call per request).
  const logLines = createBatchedWriter({ sink: (text) => void process.stderr.write(text) });
  process.once("exit", logLines.flush);
  // Calls on large texts run in a worker thread under the per-call budget (issue 8).
  const runner = new BudgetedSqlRunner({ inline: toolkit, budgetMs: config.callBudgetMs });
  // Host and Origin checks (DNS rebinding, cross-site calls; issue 26).
  const origins = new OriginPolicy({
    listenHost: config.host,
    port: config.port,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
  });
  const server = createSqlsvcServer({
    origins,
    toolkit,
    runner,
    version: options.version,
    authToken: config.authToken,
    logger: createJsonLogger({ write: logLines.write }),
    toolCallLog: logLines.write,
    metrics: createServiceMetrics("sqlsvc"),
  });
  // Parser-level refusals in the JSON-RPC error shape the app uses (see jsonRpcErrorResponse).
  answerClientErrors(server, {
    body: (_status, message) => ({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
  });
  try {
    await listen(server, config.host, config.port);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    onFatal(`sqlsvc-mcp: cannot listen on ${config.host}:${config.port}: ${reason}`);
    await runner.close();
    return 1;
  }
  const bound = (server.address() as AddressInfo).port;
  origins.boundTo(bound);
  onListening(bound);
  return new Promise<number>((resolve) => {
    stopper.onStop(() => {
      void drainServer(server)
        .then(() => runner.close())
        .then(() => resolve(0));
    });
  });
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function superviseWorkers(
  options: RunSqlsvcHttpOptions,
  stopper: Stopper,
  onListening: (port: number) => void,
): Promise<number> {
  const { config, log } = options;
  return new Promise<number>((resolve) => {
    const workers = new Set<Worker>();
    let listening = 0;
    let ready = false;
    let stopping = false;
    let exitCode = 0;

    const stopAll = (code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      if (workers.size === 0) resolve(exitCode);
      // A signal rather than a message: a worker still loading modules has no message listener
      // yet, and dies at once on SIGTERM, which is right for a worker that serves nothing.
      for (const worker of workers) worker.process.kill("SIGTERM");
    };

    const fork = () => {
      const worker = cluster.fork();
      workers.add(worker);
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "fatal") {
          // Every worker meets the same bind failure (EADDRINUSE): say it once (issue 24).
          if (!stopping) log(message.message);
          stopAll(1);
        } else if (message.type === "listening" && !ready && ++listening === config.workers) {
          ready = true;
          onListening(message.port);
        }
      });
      worker.on("exit", (code, signal) => {
        workers.delete(worker);
        if (stopping) {
          if (workers.size === 0) resolve(exitCode);
        } else if (!ready) {
          log(`sqlsvc-mcp: a worker exited during startup (${signal ?? `code ${String(code)}`})`);
          stopAll(1);
        } else {
          log(
            `sqlsvc-mcp: worker ${String(worker.process.pid)} exited (${signal ?? `code ${String(code)}`}); starting another`,
          );
          fork();
        }
      });
    };

    for (let i = 0; i < config.workers; i++) fork();
    stopper.onStop(() => stopAll(0));
  });
}
