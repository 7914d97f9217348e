import { AgentServicesError } from "../../core/errors.js";

/**
 * Settings of `sqlsvc-mcp`, from environment variables.
 *
 * @example
 * const config: SqlsvcConfig = loadSqlsvcConfig(process.env, { cores: availableParallelism() });
 */
export interface SqlsvcConfig {
  /** `SQLSVC_MCP_HOST`, default `127.0.0.1`, used as given (a bad host fails at bind). */
  readonly host: string;
  /** `SQLSVC_MCP_PORT`, default 8080, 1..65535 (0 only through {@link SqlsvcConfigOptions}). */
  readonly port: number;
  /** `SQLSVC_MCP_AUTH_TOKEN`, trimmed; empty means auth is off. */
  readonly authToken: string;
  /** `SQLSVC_MCP_WORKERS`, processes serving HTTP; default: one per core. */
  readonly workers: number;
  /**
   * `SQLSVC_MCP_CALL_BUDGET_MS`, default 10000, 100..600000: longest a tool call on a text over
   * 16 KiB may run (in a worker thread) before it is stopped with a tool error.
   */
  readonly callBudgetMs: number;
}

/**
 * Options of {@link loadSqlsvcConfig}.
 *
 * @example
 * loadSqlsvcConfig(process.env, { cores: os.availableParallelism() });
 */
export interface SqlsvcConfigOptions {
  /** Default for `SQLSVC_MCP_WORKERS` (the number of cores). */
  readonly cores: number;
}

const MAX_WORKERS = 64;

/** Default of `SQLSVC_MCP_CALL_BUDGET_MS`: the costliest 256 KiB texts take 1-2 s. */
export const DEFAULT_CALL_BUDGET_MS = 10_000;

/**
 * Reads and checks the environment, reporting every problem at once: throws a `config_invalid`
 * error whose message has one problem per line, each naming the variable, e.g.
 * `SQLSVC_MCP_PORT: expected integer, got "abc"` or `SQLSVC_MCP_PORT: 0 is out of range (1-65535)`.
 * Integers follow Go's `strconv.Atoi`, as the Go original did: an optional sign, then digits only
 * (`+8080` is 8080; ` 80` and `1.5` are not integers).
 *
 * Port 0 (any free port) is refused like the original does, except through
 * `SQLSVC_MCP_PORT=0` when `SQLSVC_MCP_ALLOW_PORT_0=1` is set; tests and benchmarks use that to
 * get a free port and read it back from the startup line.
 *
 * @example
 * loadSqlsvcConfig({ SQLSVC_MCP_PORT: "+9000" }, { cores: 2 });
 * // { host: "127.0.0.1", port: 9000, authToken: "", workers: 2, callBudgetMs: 10000 }
 */
export function loadSqlsvcConfig(
  env: Readonly<Record<string, string | undefined>>,
  options: SqlsvcConfigOptions,
): SqlsvcConfig {
  const problems: string[] = [];
  const host = env["SQLSVC_MCP_HOST"] || "127.0.0.1";
  const allowPort0 = env["SQLSVC_MCP_ALLOW_PORT_0"] === "1";
  const port = readInteger(env, "SQLSVC_MCP_PORT", 8080, allowPort0 ? 0 : 1, 65535, problems);
  const workers = readInteger(
    env,
    "SQLSVC_MCP_WORKERS",
    defaultWorkers(options.cores),
    1,
    MAX_WORKERS,
    problems,
  );
  const callBudgetMs = readInteger(
    env,
    "SQLSVC_MCP_CALL_BUDGET_MS",
    DEFAULT_CALL_BUDGET_MS,
    100,
    600_000,
    problems,
  );
  const authToken = (env["SQLSVC_MCP_AUTH_TOKEN"] ?? "").trim();
  if (problems.length > 0) throw new AgentServicesError("config_invalid", problems.join("\n"));
  return { host, port, authToken, workers, callBudgetMs };
}

function defaultWorkers(cores: number): number {
  return Math.min(Math.max(1, Math.floor(cores)), MAX_WORKERS);
}

function readInteger(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = parseGoInt(raw);
  if (value === undefined) {
    problems.push(`${name}: expected integer, got ${goQuote(raw)}`);
    return fallback;
  }
  if (value < min || value > max) {
    // The original allows 1-65535; the range in the message stays that even with port 0 allowed.
    const shownMin = name === "SQLSVC_MCP_PORT" ? 1 : min;
    problems.push(`${name}: ${String(value)} is out of range (${shownMin}-${max})`);
    return fallback;
  }
  return Number(value);
}

/** `strconv.Atoi`: optional sign then ASCII digits, within int64; undefined otherwise. */
function parseGoInt(raw: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(raw)) return undefined;
  const value = BigInt(raw.startsWith("+") ? raw.slice(1) : raw);
  const limit = 2n ** 63n;
  return value >= -limit && value < limit ? value : undefined;
}

/** Go's `%q`: double quotes, backslash escapes, control characters as `\xNN`. */
function goQuote(text: string): string {
  const escapes: Record<string, string> = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\x07": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
  };
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const escape = escapes[char];
    if (escape !== undefined) out += escape;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}
