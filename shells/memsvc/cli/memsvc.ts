#!/usr/bin/env node
import "reflect-metadata";
// Before the other modules load: V8 reads these flags as the heap grows (see heap-flags.ts).
import { watchStoreSize } from "./apply-heap-flags.js";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import {
  formatHostPort,
  isLoopbackHost,
  loadConfig,
  packageVersion,
  type MemsvcConfig,
} from "../config/index.js";
import {
  commandLineErrorText,
  HELP_AND_VERSION,
  isCommandLineError,
} from "../../common/command-line.js";
import { isAgentServicesError } from "../../../core/errors.js";
import { DRAIN_DEADLINE_MS, drainServer } from "../../common/drain-server.js";
import { registerTenantMetrics } from "../http/tenant-metrics.js";
import { buildMemsvc, startPeriodicSweep, type MemsvcRuntime } from "../container/index.js";
import {
  answerClientErrors,
  createStderrLogger,
  createServiceMetrics,
  createMemoryListener,
  describeCause,
  type Logger,
  type ServiceMetrics,
} from "../http/index.js";
import type { MemoryBrowserOptions } from "../http/mount-memory-browser.js";
import { OriginPolicy } from "../../common/http/origin-check.js";
import { DEFAULT_UI_ASSETS_DIR, loadUiAssets } from "../http/ui-assets.js";
import { ApiKeys } from "../auth/api-keys.js";
import { createStartingListener } from "../http/starting-listener.js";
import { JournaledVectorStore } from "../../../core/storage/journaled-vector-store.js";
import type { VectorStore } from "../../../core/ports/vector-store.js";

import {
  CLIENT_COMMANDS,
  CLIENT_USAGE,
  runClientCommand,
  type ClientCommand,
} from "./client/client-commands.js";
import { KEYS_USAGE, runKeyCommand } from "./client/key-commands.js";
const USAGE = `Usage: memsvc <command> [options]

Commands:
  serve [--config FILE]   Start the memory REST API (and MCP at POST /mcp)
  mcp [--config FILE]     Serve the memory tools over MCP on stdin/stdout
  reindex [--config FILE] Re-embed every stored memory with the configured embedder
                          (after changing embedders; stop the service first)
  migrate [--config FILE] Apply the PostgreSQL store's schema migrations and exit
                          (serve applies them at start too)

${CLIENT_USAGE}
${KEYS_USAGE}
Options:
  --config FILE           YAML configuration (default: $MEMSVC_CONFIG, else ./memsvc.yaml if present)
  -h, --help              Show this help
  -v, --version           Show the version

Environment variables MEMSVC_<SECTION>_<KEY> override the file (see docs/configuration.md).
`;

type Command =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "serve" | "mcp" | "reindex" | "migrate"; config?: string };

function parseCommand(argv: readonly string[]): Command | { kind: "usage-error"; message: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { ...HELP_AND_VERSION, config: { type: "string" } },
    });
  } catch (error) {
    if (isCommandLineError(error)) {
      return { kind: "usage-error", message: commandLineErrorText(error, ["config", "help"]) };
    }
    throw error;
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: "help" };
  if (values.version === true) return { kind: "version" };
  const [command, ...extra] = positionals;
  if (command === undefined) return { kind: "usage-error", message: "missing command" };
  if (command === "help") return { kind: "help" };
  if (command !== "serve" && command !== "mcp" && command !== "reindex" && command !== "migrate") {
    return { kind: "usage-error", message: `unknown command ${JSON.stringify(command)}` };
  }
  if (extra.length > 0) {
    return { kind: "usage-error", message: `unexpected argument ${JSON.stringify(extra[0])}` };
  }
  if (values.config === "") return { kind: "usage-error", message: "--config needs a FILE" };
  return values.config === undefined ? { kind: command } : { kind: command, config: values.config };
}

function fail(message: string, code: number): never {
  process.stderr.write(`memsvc: ${message}\n`);
  process.exit(code);
}

/** Loads the configuration or exits 1 listing every problem, before anything binds. */
function configure(configPath: string | undefined): { config: MemsvcConfig; logger: Logger } {
  const result = loadConfig({ configPath, env: process.env, cwd: process.cwd() });
  if (!result.ok) {
    const n = result.problems.length;
    fail(
      `invalid configuration (${n} problem${n === 1 ? "" : "s"}):\n${result.problems.join("\n")}`,
      1,
    );
  }
  const logger = createStderrLogger(result.config.log);
  for (const warning of result.warnings) logger.warn(warning);
  return { config: result.config, logger };
}

async function build(
  config: MemsvcConfig,
  logger: Logger,
  metrics?: ServiceMetrics,
  onStore?: (store: VectorStore) => void,
  /** A stop asked for during the start (`serve`): the build then ends it, not as a failure. */
  stopped?: () => { readonly signal: string; readonly store: VectorStore | undefined } | undefined,
): Promise<MemsvcRuntime> {
  try {
    const runtime = await buildMemsvc(config, logger, metrics, onStore);
    // The timer is unref'd: it never keeps the process alive, so nothing needs to stop it.
    watchStoreSize(
      () => runtime.tenants.loadedMemories,
      (memories) =>
        logger.info("large store: the young generation may grow (faster queries, more RSS)", {
          memories,
        }),
    );
    probeEmbedder(runtime, logger);
    return runtime;
  } catch (error) {
    const stop = stopped?.();
    if (stop !== undefined) {
      // buildMemsvc released what it started (store, journal, Chroma) before it rethrew.
      logger.info("stopped during startup", { signal: stop.signal, ...journalLeft(stop.store) });
      process.exit(0);
    }
    logger.error("startup failed", { cause: describeCause(error) });
    // The cause only when the message does not already quote it (the store's errors do).
    const cause =
      error instanceof Error &&
      error.cause instanceof Error &&
      !error.message.includes(error.cause.message)
        ? `: ${error.cause.message}`
        : "";
    const hint = isAgentServicesError(error, "embedder_mismatch")
      ? "\nTo switch embedders, stop every service on this store and run `memsvc reindex` with the new configuration (it re-embeds every memory); or set the embedder back."
      : "";
    return fail(
      `startup failed: ${error instanceof Error ? error.message : String(error)}${cause}${hint}`,
      1,
    );
  }
}

/**
 * Asks the embedder once at startup, behind the listening line: a remote embedder that does not
 * answer (Ollama not started, a wrong URL) is a warning naming it and why, not a failed start;
 * remembers and searches fail until it answers, and `/readyz` says so.
 */
function probeEmbedder(runtime: MemsvcRuntime, logger: Logger): void {
  // Not through /readyz: a success there is cached, and a probe must not vouch for later calls.
  runtime.probeEmbedder().catch((error: unknown) => {
    logger.warn(
      `the embedder does not answer; remembers, recalls and searches fail until it does`,
      { embedder: runtime.embedderDescription, cause: causeChain(error) },
    );
  });
}

/** The messages of an error and its causes, without stacks: `a: b: c`. */
function causeChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 5;) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(": ");
}

/** The memory browser's files, read before anything starts; exits 1 when they are missing. */
function memoryBrowser(config: MemsvcConfig): MemoryBrowserOptions | undefined {
  if (!config.ui.enabled) return undefined;
  try {
    return { path: config.ui.path, assets: loadUiAssets(DEFAULT_UI_ASSETS_DIR) };
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error), 1);
  }
}

function listen(server: Server, config: MemsvcConfig): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.api.listen.port, config.api.listen.host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Traps SIGINT/SIGTERM from the very start, so a signal that arrives while Chroma starts or just
 * after the startup line is printed is never the default "die at once": it is remembered and
 * handed to the shutdown routine as soon as that exists. Only the first signal counts, except
 * that a SIGINT after an earlier signal (Ctrl-C again) exits at once with 130: what was
 * acknowledged is already durable (synced to the write journal, or committed in PostgreSQL); the
 * requests still in flight get no answer and the engine snapshot is not saved.
 */
function trapSignals() {
  let handler: ((signal: string) => Promise<void>) | undefined;
  let pending: string | undefined;
  let fired = false;
  const fire = (signal: string) => {
    if (fired || handler === undefined) return;
    fired = true;
    void handler(signal);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (signal === "SIGINT" && pending !== undefined) {
        process.stderr.write(
          "memsvc: second SIGINT: exiting now, without waiting for the shutdown (acknowledged writes are durable; the next start may load the whole store)\n",
        );
        process.exit(130);
      }
      pending ??= signal;
      fire(signal);
    });
  }
  return {
    /** A signal received so far, if any. */
    pending: () => pending,
    /**
     * Installs the shutdown routine (the start's, then the serving one's); runs it at once if a
     * signal already arrived. Once one has run, a later routine never does.
     */
    onSignal(routine: (signal: string) => Promise<void>) {
      handler = routine;
      if (pending !== undefined) fire(pending);
    },
  };
}

/**
 * What a start stopped during the write journal's replay leaves in the journal (the next start
 * replays it), for the log line; nothing for another store.
 */
function journalLeft(store: VectorStore | undefined): { replayed_ids?: number; left_ids?: number } {
  if (!(store instanceof JournaledVectorStore)) return {};
  const replay = store.replay;
  return { replayed_ids: replay?.done ?? 0, left_ids: store.pendingIds };
}

/**
 * Exits 0 when a signal arrived while starting up and the start completed anyway (a store
 * that is not journaled, or a signal just as the load ended): nothing to drain yet.
 */
async function abortIfSignalled(
  signals: ReturnType<typeof trapSignals>,
  runtime: MemsvcRuntime,
  logger: Logger,
) {
  const signal = signals.pending();
  if (signal === undefined) return;
  await runtime.close();
  logger.info("stopped during startup", { signal });
  process.exit(0);
}

async function serve(configPath: string | undefined): Promise<void> {
  const signals = trapSignals();
  const { config, logger } = configure(configPath);
  const version = packageVersion();
  const metrics = createServiceMetrics("memsvc");
  const ui = memoryBrowser(config);
  // Bound before the store is loaded (a crash's journal backlog can take a minute to replay):
  // /healthz answers at once, /readyz says what the start does, the rest is 503 + Retry-After
  // until the engine holds every acknowledged write (issue 26).
  let store: VectorStore | undefined;
  // Host and Origin checks (DNS rebinding, cross-site calls; issue 26), from the first answer.
  const origins = new OriginPolicy({
    listenHost: config.api.listen.host,
    port: config.api.listen.port,
    allowedHosts: config.api.allowedHosts,
    allowedOrigins: config.api.allowedOrigins,
  });
  let handle: RequestListener = createStartingListener({
    authToken: config.api.authToken,
    status: () => startingStatus(store),
    origins,
  });
  const server = createServer((req, res) => handle(req, res));
  // Longer than the usual client and load balancer idle timeouts (Node's default is 5 s), so the
  // server is not the side closing an idle keep-alive socket a client is about to reuse.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  answerClientErrors(server, {
    body: (_status, message) => ({ error: message }),
    onRefused: (fields) => logger.debug("refused by the HTTP parser", fields),
  });
  let address: AddressInfo;
  try {
    address = await listen(server, config);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    fail(
      `cannot listen on ${config.api.listenText}: ${code === "EADDRINUSE" ? "address already in use" : String(error)}`,
      1,
    );
  }
  origins.boundTo(address.port);
  const bound = formatHostPort(address.address, address.port);
  logger.info("listening while starting; /readyz answers 503 until every memory is loaded", {
    address: bound,
  });
  const startedAt = performance.now();
  // SIGTERM during the start: a journaled store closes at once without replaying more (the
  // journal keeps the rest for the next start), so the build ends well within the drain deadline
  // instead of after the whole replay (issue 26); other stores finish starting, then stop.
  const stopStart = () => {
    if (store instanceof JournaledVectorStore) void store.close({ drain: false });
  };
  signals.onSignal(async (signal) => {
    logger.info("shutting down during startup", { signal });
    stopStart();
  });
  const runtime = await build(
    config,
    logger,
    metrics,
    (s) => {
      store = s;
      if (signals.pending() !== undefined) stopStart();
    },
    () => {
      const signal = signals.pending();
      return signal === undefined ? undefined : { signal, store };
    },
  );
  metrics.countMemoriesWith(async () =>
    (await runtime.tenants.counts()).reduce((sum, t) => sum + t.memories, 0),
  );
  registerTenantMetrics(metrics.registry, () => runtime.tenants.counts());
  metrics.countPendingWritesWith(runtime.pendingWrites);
  metrics.countWriteRefusalWith(() => runtime.writeRefusal()?.code);
  await abortIfSignalled(signals, runtime, logger);
  // The hot JSON routes answered in front of the Hono app (see createMemoryListener).
  const listener = createMemoryListener({
    origins,
    metrics,
    // Each request acts on its principal's tenant (the edge decides it).
    memory: (principal) => runtime.memoryAs(principal),
    tenants: runtime.tenants,
    version,
    authToken: config.api.authToken,
    keys: runtime.apiKeys === undefined ? undefined : new ApiKeys({ store: runtime.apiKeys }),
    rateLimit: config.api.rateLimit,
    readiness: runtime.readiness,
    logger,
    ui,
  });
  handle = listener;
  const sweep = startPeriodicSweep(runtime.memory, config.sweepIntervalMs, logger, {
    // Ticks drift: a turn is due a little before the next tick of the replica that last swept.
    turn: () => runtime.claimTurn("sweep-expired", Math.floor(config.sweepIntervalMs * 0.9)),
  });
  // Installed before the startup line: a client may signal as soon as it reads that line.
  signals.onSignal(async (signal) => {
    logger.info("shutting down", { signal });
    if (!(await drainServer(server))) {
      logger.warn("drain deadline passed; closed the remaining connections", {
        deadline_ms: DRAIN_DEADLINE_MS,
      });
    }
    await sweep.stop();
    await runtime.close();
    logger.info("stopped");
    process.exit(0);
  });
  process.stdout.write(
    `memsvc ${version} listening on http://${bound} (store: ${runtime.storeDescription}; embedder: ${runtime.embedderDescription})\n`,
  );
  logger.info("listening", {
    address: bound,
    ready_after_ms: Math.round(performance.now() - startedAt),
    store: runtime.storeDescription,
    embedder: runtime.embedderDescription,
    ui: ui === undefined ? "off" : `http://${bound}${config.ui.path}`,
  });
  if (config.api.authToken === undefined && !isLoopbackHost(config.api.listen.host)) {
    logger.warn(
      `authentication is off and the API listens on ${config.api.listenText}, reachable from other machines; set api.auth_token (MEMSVC_API_AUTH_TOKEN)`,
    );
  }
}

/** What `/readyz` says while the service starts (see createStartingListener). */
function startingStatus(store: VectorStore | undefined): string {
  if (store === undefined) return "opening the store";
  const replay = store instanceof JournaledVectorStore ? store.replay : undefined;
  if (replay === undefined) return "loading memories";
  const n = (x: number) => x.toLocaleString("en-US");
  return `replaying the write journal: ${n(replay.done)} of ${n(replay.total)} ids`;
}

async function mcp(configPath: string | undefined): Promise<void> {
  const signals = trapSignals();
  const { config, logger } = configure(configPath);
  // Loaded here, not at the top: `serve` loads the MCP SDK only when /mcp is first used.
  const [{ createMemoryTools }, { serveMcpStdio }, { createToolCatalog }, { memsvcServerInfo }] =
    await Promise.all([
      import("../mcp/memory-tools.js"),
      import("../../common/mcp/serve-mcp-stdio.js"),
      import("../../common/mcp/tool-catalog.js"),
      import("../mcp/memsvc-server-info.js"),
    ]);
  const runtime = await build(config, logger);
  const sweep = startPeriodicSweep(runtime.memory, config.sweepIntervalMs, logger, {
    // Ticks drift: a turn is due a little before the next tick of the replica that last swept.
    turn: () => runtime.claimTurn("sweep-expired", Math.floor(config.sweepIntervalMs * 0.9)),
  });
  // stdio MCP is the operator's own channel: it acts on `mcp.tenant` (issue 23).
  const tools = createMemoryTools(
    runtime.memoryAs({ tenant: config.mcp.tenant, readOnly: false }),
    {
      onFailure: (error, tool) =>
        logger.error("mcp tool failed", { tool, cause: describeCause(error) }),
    },
  );
  const catalog = createToolCatalog(tools, {
    invalidArguments: "tool_error",
    onServerFault: (error, tool) =>
      logger.error("mcp tool fault", { tool, cause: describeCause(error) }),
  });
  const stop = async () => {
    await sweep.stop();
    await runtime.close();
    process.exit(0);
  };
  signals.onSignal(stop);
  logger.info("serving MCP on stdio", {
    store: runtime.storeDescription,
    embedder: runtime.embedderDescription,
  });
  await serveMcpStdio(memsvcServerInfo(packageVersion()), catalog);
  await stop();
}

async function reindex(configPath: string | undefined): Promise<void> {
  const { config, logger } = configure(configPath);
  const { reindexMemsvc } = await import("../container/reindex-memsvc.js");
  try {
    const done = await reindexMemsvc(config, logger);
    process.stdout.write(
      `memsvc: re-embedded ${done.memories} memories of collection "${done.collection}" with ${done.embedder} in ${done.ms} ms\n`,
    );
  } catch (error) {
    logger.error("reindex failed", { cause: describeCause(error) });
    fail(`reindex failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
}

async function migrate(configPath: string | undefined): Promise<void> {
  const { config, logger } = configure(configPath);
  const { migrateMemsvc } = await import("../container/migrate-memsvc.js");
  try {
    const done = await migrateMemsvc(config);
    if (done.store === undefined) {
      process.stdout.write("memsvc: the Chroma store has no schema to migrate\n");
      return;
    }
    process.stdout.write(
      done.applied.length === 0
        ? `memsvc: ${done.store} is at schema version ${done.version}; nothing to apply\n`
        : `memsvc: applied migration${done.applied.length === 1 ? "" : "s"} ${done.applied.join(", ")} to ${done.store}; schema version ${done.version}\n`,
    );
  } catch (error) {
    logger.error("migrate failed", { cause: describeCause(error) });
    fail(`migrate failed: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
}

/** A command that talks to a running service: the people's commands and `keys`. */
function isServiceCommand(arg: string | undefined): arg is ClientCommand | "keys" {
  return arg === "keys" || (CLIENT_COMMANDS as readonly (string | undefined)[]).includes(arg);
}

/**
 * The hint for options given before a command that talks to a service (`memsvc --url U list`):
 * its options go after it, so the command line is read as no command and an unknown option.
 */
function afterTheCommand(args: readonly string[]): string {
  if (!args[0]?.startsWith("-")) return "";
  const at = args.findIndex(isServiceCommand);
  if (at < 0) return "";
  const reordered = [args[at], ...args.slice(0, at), ...args.slice(at + 1)];
  const plain = reordered.every((arg) => /^[\w@%+=:,./-]+$/.test(arg ?? ""));
  return plain
    ? `; options go after the command: memsvc ${reordered.join(" ")}`
    : `; options go after the command (memsvc ${args[at]} [options])`;
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  const io = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  };
  if (isServiceCommand(first)) {
    if (first === "keys") {
      process.exitCode = await runKeyCommand(rest, io);
      return;
    }
    // A closed pipe (`memsvc list | head`) ends the output, not with a stack trace.
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(0);
      throw error;
    });
    process.exitCode = await runClientCommand(first, rest, io);
    return;
  }
  const command = parseCommand(process.argv.slice(2));
  switch (command.kind) {
    case "help":
      process.stdout.write(USAGE);
      return;
    case "version":
      process.stdout.write(`${packageVersion()}\n`);
      return;
    case "usage-error":
      process.stderr.write(
        `memsvc: ${command.message}${afterTheCommand(process.argv.slice(2))}\n\n${USAGE}`,
      );
      process.exit(2);
      break;
    case "serve":
      return serve(command.config);
    case "mcp":
      return mcp(command.config);
    case "reindex":
      return reindex(command.config);
    case "migrate":
      return migrate(command.config);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`memsvc: fatal: ${describeCause(error)}\n`);
  process.exit(1);
});
