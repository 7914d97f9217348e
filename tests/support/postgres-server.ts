import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, openSync, closeSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** A throwaway PostgreSQL server for tests: see {@link startPostgresServer}. */
export interface PostgresServer {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** The superuser's password (host connections use scram-sha-256). */
  readonly password: string;
  /** The URL of another database on this server (`name`), with the same credentials. */
  urlOf(database: string): string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Immediate shutdown (`pg_ctl stop -m immediate`: SIGQUIT, no checkpoint), like a crash. */
  kill(): Promise<void>;
  /** Starts the server again on the same port and data directory (after `kill` or `stopServer`). */
  restart(): Promise<void>;
  /** Fast shutdown (SIGINT) without removing the data directory. */
  stopServer(): Promise<void>;
  /** Stops the server (fast shutdown) and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Options of {@link startPostgresServer}. */
export interface PostgresServerOptions {
  /** How long to wait for the server to accept connections; default 60 s (the test machine is busy). */
  readonly startTimeoutMs?: number;
  /**
   * More server settings, each passed as `-c name=value` (benches use it, e.g.
   * `{ shared_preload_libraries: "pg_stat_statements" }` to count statements).
   */
  readonly settings?: Readonly<Record<string, string>>;
}

const INSTALL_HINT =
  "PostgreSQL server binaries (initdb, postgres) not found: install them, e.g. " +
  "`apt-get install postgresql` on Debian/Ubuntu (.ci/run does it), or set PG_BINDIR " +
  "to the folder holding initdb";

/**
 * The folder of PostgreSQL's server binaries: `PG_BINDIR`, else `pg_config --bindir`, else the
 * newest `/usr/lib/postgresql/<version>/bin`. Throws with the install hint when none has initdb:
 * the PostgreSQL tests fail loudly rather than skip.
 *
 * @example
 * postgresBinDir(); // "/usr/lib/postgresql/15/bin"
 */
export function postgresBinDir(): string {
  const candidates: string[] = [];
  if (process.env["PG_BINDIR"]) candidates.push(process.env["PG_BINDIR"]);
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim());
  } catch {
    // pg_config is in libpq-dev or the server package: fall back to Debian's layout.
  }
  try {
    const versions = execFileSync("ls", ["/usr/lib/postgresql"], { encoding: "utf8" })
      .split("\n")
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  } catch {
    // No Debian layout.
  }
  const found = candidates.find(
    (dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres")),
  );
  if (found === undefined) throw new Error(INSTALL_HINT);
  return found;
}

/**
 * Starts a throwaway PostgreSQL server: `initdb` into a temp directory (as the `postgres` user
 * when running as root, since the server refuses root), listening on 127.0.0.1 on a free port,
 * its unix socket in the temp directory, with `fsync` and `synchronous_commit` on (tests check
 * durability). Host connections need the password (scram-sha-256), so a wrong one is testable.
 *
 * @example
 * const server = await startPostgresServer();
 * const url = await server.createDatabase(); // a fresh database per test
 * await server.kill(); await server.restart(); // a crash and a restart
 * await server.stop();
 */
export async function startPostgresServer(
  options: PostgresServerOptions = {},
): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const owner = serverOwner();
  const dir = await mkdtemp(join(tmpdir(), "agent-services-pg-"));
  const dataDir = join(dir, "data");
  const logFile = join(dir, "postgres.log");
  const password = randomBytes(12).toString("hex");
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  let child: ChildProcess | undefined;
  let removed = false;
  try {
    if (owner !== undefined) await chown(dir, owner.uid, owner.gid);
    const pwfile = join(dir, "pwfile");
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner !== undefined) await chown(pwfile, owner.uid, owner.gid);
    await run(
      join(bin, "initdb"),
      [
        "--no-sync", // the cluster's creation needs no durability; the server runs with fsync on
        "-D",
        dataDir,
        "-U",
        "postgres",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--auth-local=trust",
        "--auth-host=scram-sha-256",
        `--pwfile=${pwfile}`,
      ],
      owner,
    );
    await rm(pwfile, { force: true });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const port = await freePort();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;

  const start = async (): Promise<void> => {
    const log = openSync(logFile, "a");
    if (owner !== undefined) await chown(logFile, owner.uid, owner.gid);
    const proc = spawn(
      join(bin, "postgres"),
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-k",
        dir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=on",
        "-c",
        "synchronous_commit=on",
        "-c",
        "max_connections=200",
        "-c",
        "shared_buffers=128MB",
        ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => [
          "-c",
          `${name}=${value}`,
        ]),
      ],
      { stdio: ["ignore", log, log], ...(owner ?? {}) },
    );
    closeSync(log);
    child = proc;
    await waitUntilReady(url, proc, logFile, startTimeoutMs);
  };

  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
    // The postmaster exits only after its backends did (immediate shutdown included).
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (error) {
    await signalAndWait("SIGQUIT");
    await rm(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url,
    port,
    password,
    urlOf: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    async createDatabase(name = `t_${randomBytes(6).toString("hex")}`) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres:${password}@127.0.0.1:${port}/${name}`;
    },
    kill: () => signalAndWait("SIGQUIT"),
    stopServer: () => signalAndWait("SIGINT"),
    async restart() {
      await signalAndWait("SIGQUIT");
      await start();
    },
    async stop() {
      if (removed) return;
      removed = true;
      await signalAndWait("SIGINT");
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The uid/gid to run the server as: `postgres` when we are root, else ourselves. */
function serverOwner(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      "running as root, and PostgreSQL refuses to run as root: create a `postgres` user " +
        "(the Debian package does) or run the tests as another user",
    );
  }
}

function run(
  command: string,
  args: string[],
  owner: { uid: number; gid: number } | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...(owner ?? {}) });
    let output = "";
    proc.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.on("error", reject);
    proc.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with ${String(code)}:\n${output.slice(-2000)}`));
    });
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(
  url: string,
  proc: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`postgres exited while starting:\n${await logTail(logFile)}`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `postgres did not accept connections within ${timeoutMs} ms (${String(lastError)}):\n` +
      (await logTail(logFile)),
  );
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, "utf8").catch(() => "");
  return text.slice(-3000);
}
